import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

const installed = new WeakSet<object>();

/**
 * class-validator works out a class's rules anew for every object it validates: it filters
 * the class's decorators, then walks every decorated class of the process looking for
 * parents, then groups the result by property. For a game's body (the body, each action)
 * that was about a twentieth of the app's CPU per request. The answer only changes when a
 * decorator registers a rule, which happens while modules load, so it is kept per class
 * (and per option set) and dropped whenever a rule is added. Calls with groups, which the
 * app does not make, are passed through as they are. Both answers are only read by
 * class-validator and Nest's pipe, never changed.
 */
export function cacheValidationMetadata(): void {
  // The two lookups every validation makes, and the one call that changes their answers, are replaced.
  const storage = getMetadataStorage();
  if (installed.has(storage)) return;
  installed.add(storage);
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const add = storage.addValidationMetadata.bind(storage);
  let byTarget = new Map<unknown, Map<string, ValidationMetadata[]>>();
  let grouped = new WeakMap<ValidationMetadata[], Record<string, ValidationMetadata[]>>();
  storage.addValidationMetadata = (metadata) => {
    byTarget = new Map();
    grouped = new WeakMap();
    add(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (groups !== undefined && groups.length > 0) return lookup(target, schema, always, strictGroups, groups);
    const key = `${String(schema)}|${always}|${strictGroups}`;
    let forTarget = byTarget.get(target);
    if (!forTarget) byTarget.set(target, (forTarget = new Map<string, ValidationMetadata[]>()));
    let found = forTarget.get(key);
    if (!found) forTarget.set(key, (found = lookup(target, schema, always, strictGroups, groups)));
    return found;
  };
  storage.groupByPropertyName = (metadata) => {
    let found = grouped.get(metadata);
    if (!found) {
      found = group(metadata);
      grouped.set(metadata, found);
    }
    return found;
  };
}
