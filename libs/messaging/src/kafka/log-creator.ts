import { logLevel, LogEntry } from 'kafkajs';
import type { BusLogger } from '../logger';

/**
 * kafkajs logs through this instead of the console: each entry becomes one structured line on
 * the bus logger, with kafkajs's namespace as a field. Once the bus is closing, kafkajs's
 * complaints about the connections being closed are expected and go to debug.
 */
export function busLogCreator(logger: BusLogger, closing: () => boolean = () => false) {
  return () =>
    ({ namespace, level, log }: LogEntry): void => {
      const { message, timestamp: _timestamp, logger: _name, ...fields } = log as LogEntry['log'] & { logger?: string };
      const line = { kafkajs: namespace, ...fields };
      if (closing()) return logger.debug(line, message);
      switch (level) {
        case logLevel.ERROR:
          return logger.error(line, message);
        case logLevel.WARN:
          return logger.warn(line, message);
        case logLevel.INFO:
          return logger.info(line, message);
        default:
          return logger.debug(line, message);
      }
    };
}
