/**
 * The rule book (docs/rules.md) is served rendered at RULE_BOOK_PATH. Every rule has an
 * HTML anchor whose id is the rule id itself (`<a id="R3.4"></a>`), so a refusal citing a
 * rule links to it with a relative URL.
 */
export const RULE_BOOK_PATH = '/docs/rules';

/** The relative link to a rule in the served rule book, e.g. `/docs/rules#R3.4`. */
export const ruleUrlOf = (rule: string): string => `${RULE_BOOK_PATH}#${rule}`;
