/**
 * Injection tokens for the two plain values the composition root hands Nest: configuration and
 * the logger. Everything else is injected by its own class (a port or an adapter).
 */
export const CONFIG = Symbol('CONFIG');
export const LOGGER = Symbol('LOGGER');
