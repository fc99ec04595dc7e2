import { pingEnvelope } from '../envelope';
import { FORMAT_TYPES, render, renderCef, renderJson, renderOcsf, SIEM_FORMATS } from '.';

const ping = pingEnvelope('w-1', new Date('2026-11-20T10:00:00.000Z'), 'n');

/** The webhook's format_type picks one entry of the registry: its body and its content type. */
describe('the SIEM format registry', () => {
  it('lists the format types in the order the API has always listed them', () => {
    expect(FORMAT_TYPES).toEqual(['json', 'ocsf', 'cef', 'syslog']);
    expect(new Set(FORMAT_TYPES).size).toBe(SIEM_FORMATS.length);
  });

  it('given a format type, when an envelope is rendered, then the body is that format and the content type its own', () => {
    const options = { productVersion: '9.9.9' };
    expect(render(ping, 'json', options)).toEqual({ body: renderJson(ping), contentType: 'application/json' });
    expect(render(ping, 'ocsf', options)).toEqual({ body: renderOcsf(ping, { name: 'Gauntlet', vendor_name: 'Gauntlet', version: '9.9.9' }), contentType: 'application/json' });
    expect(render(ping, 'cef', options)).toEqual({ body: renderCef(ping, { vendor: 'Gauntlet', product: 'Gauntlet', version: '9.9.9' }), contentType: 'text/plain; charset=utf-8' });
    const syslog = render(ping, 'syslog', { ...options, syslog: { hostname: 'siem-relay', facility: 4 } });
    expect(syslog.contentType).toBe('text/plain; charset=utf-8');
    expect(syslog.body).toMatch(/^<3\d>1 \S+ siem-relay gauntlet - ping /);
  });

  it('given a format type no entry names, when rendering, then it refuses rather than send an empty body', () => {
    expect(() => render(ping, 'leef', { productVersion: '9.9.9' })).toThrow(RangeError);
  });
});
