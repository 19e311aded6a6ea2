/** Injection token of the validated AppConfig. */
export const CONFIG = Symbol('CONFIG');

/** Injection token of the database URL the app runs on (the embedded server's when none is configured). */
export const DATABASE_URL = Symbol('DATABASE_URL');
