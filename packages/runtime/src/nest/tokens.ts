/** Injection tokens for the shared values that are not classes. */
export const CONFIG = Symbol('HallmarkConfig');
export const LOGGER = Symbol('Logger');
export const SERVICE_KEYS = Symbol('ServiceKeys');
export const OBJECT_STORAGE = Symbol('ObjectStorage');
export const MAILER = Symbol('Mailer');
