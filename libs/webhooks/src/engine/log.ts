/** The slice of pino the engine uses, so tests can pass a silent or recording one. */
export interface EngineLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const silentLog: EngineLog = { info() {}, warn() {}, error() {} };
