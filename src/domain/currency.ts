/**
 * Amounts in minor units written as exact decimal text in major units (R6.2): the
 * number of minor digits of an ISO 4217 currency, and the text itself, computed with
 * integers and strings only (never a float, never `toFixed`).
 *
 * Pure: no framework, no I/O, no locale. The digits come from ISO 4217's table, not
 * from the runtime's locale data (CLDR), which differs for some currencies (it gives
 * IQD 0 where ISO 4217 gives 3, HUF and IDR 0 where ISO 4217 gives 2).
 */

/** ISO 4217 currencies whose minor unit is not the hundredth. Every other code has 2. */
const MINOR_DIGITS: ReadonlyMap<string, number> = new Map<string, number>([
  // No fraction: the amount in minor units is the amount.
  ...['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF'].map((c): [string, number] => [c, 0]),
  // Thousandths (fils, baisa, millimes, dirhams).
  ...['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'].map((c): [string, number] => [c, 3]),
  // Units of account kept to four places.
  ...['CLF', 'UYW'].map((c): [string, number] => [c, 4]),
  // "N.A." in ISO 4217 (precious metals, special drawing rights, test and no currency):
  // no minor unit, so whole units.
  ...['XAG', 'XAU', 'XBA', 'XBB', 'XBC', 'XBD', 'XDR', 'XPD', 'XPT', 'XSU', 'XTS', 'XUA', 'XXX'].map((c): [string, number] => [c, 0]),
]);

/** ISO 4217 minor digits of a currency code (USD 2, JPY 0, BHD 3, CLF 4); 2 for any code not listed otherwise. */
export function currencyMinorDigits(currency: string): number {
  return MINOR_DIGITS.get(currency.toUpperCase()) ?? 2;
}

/**
 * An amount in minor units as decimal text in major units with exactly `digits`
 * fraction digits, no grouping: (-1234, 2) → "-12.34", (5, 2) → "0.05", (500, 0) →
 * "500", (-5, 3) → "-0.005", (0, 2) → "0.00". A number must be a safe integer
 * (|x| ≤ 2^53 − 1, R6.2); a bigint may be any size (a column total). Zero has no sign.
 */
export function minorToDecimal(amountMinor: number | bigint, digits: number): string {
  if (typeof amountMinor === 'number' && !Number.isSafeInteger(amountMinor)) throw new RangeError(`not a safe integer amount: ${amountMinor}`);
  if (!Number.isSafeInteger(digits) || digits < 0 || digits > 18) throw new RangeError(`bad number of minor digits: ${digits}`);
  let value = BigInt(amountMinor);
  const negative = value < 0n;
  if (negative) value = -value;
  const plain = value.toString().padStart(digits + 1, '0');
  const whole = plain.slice(0, plain.length - digits);
  const fraction = digits > 0 ? `.${plain.slice(plain.length - digits)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** The same text with its whole part grouped by three with `,` (for print): (123456789, 2) → "1,234,567.89". */
export function groupedDecimal(amountMinor: number | bigint, digits: number): string {
  const text = minorToDecimal(amountMinor, digits);
  const m = /^(-?)(\d+)(.*)$/.exec(text);
  if (!m) return text;
  return `${m[1]}${m[2].replace(/\B(?=(\d{3})+$)/g, ',')}${m[3]}`;
}
