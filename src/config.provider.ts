/** Injection token of the validated AppConfig. */
export const CONFIG = Symbol('CONFIG');
