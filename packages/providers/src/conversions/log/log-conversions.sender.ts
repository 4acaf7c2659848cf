/**
 * Log driver for conversions: sends nothing, logs event ids and names only (never personal
 * data: no email, phone, names, IP, user agent or click ids). For development and deployments
 * without an ad platform.
 */
import type { ConversionEvent, ConversionsSender, ConversionsSendResult } from '../conversions.port.js';

export interface ConversionsLogger {
  info(obj: Record<string, unknown>, msg: string): void;
}

export function createLogConversionsSender(logger: ConversionsLogger): ConversionsSender {
  return {
    async send(events: ConversionEvent[]): Promise<ConversionsSendResult> {
      if (events.length === 0) return { eventsReceived: 0 };
      logger.info(
        {
          driver: 'log',
          count: events.length,
          eventIds: events.map((e) => e.eventId),
          eventNames: [...new Set(events.map((e) => e.eventName))],
        },
        'conversions: events recorded by the log driver (not sent)',
      );
      return { eventsReceived: events.length };
    },
  };
}
