import { upcastVulnerability, type RecordedVulnerability } from './scan/vulnerability';

/**
 * What each event type recorded in an older shape reads as today, keyed by type: the one table of
 * upcasts. The event store's reading side (`UpcastingEventStore`, made in the service's
 * infrastructure) applies it to every event it returns, so deciders, projections, relays and
 * histories see only current shapes and none upcasts for itself. An upcast reads one event alone;
 * a fact an old event did not record and only earlier events tell (a version 1 partial ending's
 * coverage, `partialCoverage`) stays with the fold that has them.
 */
const UPCASTS: Readonly<Record<string, (data: any) => unknown>> = {
  // versions 1 and 2: a finding per probe, before a finding was a weakness
  VulnerabilityFound: (data: { vulnerability: RecordedVulnerability }) => {
    const vulnerability = upcastVulnerability(data.vulnerability);
    return vulnerability === data.vulnerability ? data : { ...data, vulnerability };
  },
};

/** A stored event of any type, its data in the type's current shape (pure; the same event when it is current, or of a type never reshaped). */
export function upcastEvent<E extends { type: string; data: any }>(event: E): E {
  const upcast = Object.hasOwn(UPCASTS, event.type) ? UPCASTS[event.type] : undefined;
  if (!upcast || event.data === null || typeof event.data !== 'object') return event;
  const data = upcast(event.data);
  return data === event.data ? event : { ...event, data };
}
