/**
 * What the bus adapters log through: the shape of pino's methods, so the service passes its
 * pino logger as is and tests pass `silentBusLogger`.
 */
export interface BusLogger {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

const nothing = () => undefined;

export const silentBusLogger: BusLogger = { debug: nothing, info: nothing, warn: nothing, error: nothing };

/** The default when no logger is given: problems only, one JSON line each on stderr. */
export const stderrBusLogger: BusLogger = {
  debug: nothing,
  info: nothing,
  warn: (fields, message) => writeLine('warn', fields, message),
  error: (fields, message) => writeLine('error', fields, message),
};

function writeLine(level: string, fields: object, message: string): void {
  process.stderr.write(JSON.stringify({ level, time: new Date().toISOString(), component: 'bus', msg: message, ...fields }) + '\n');
}

/** Errors become fields a log line can carry (no stack: handler errors are expected to recur). */
export function errorFields(error: unknown): { error: string } {
  return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}
