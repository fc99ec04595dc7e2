import { randomBytes } from 'node:crypto';
import { answerTo, MAX_QUERY_BYTES, RCODE, readQuery, RTYPE, typeName } from './dns-wire';

/** a query as a stub resolver writes it: one question, recursion desired, maybe an EDNS OPT record */
function query(name: string, type: number, options: { id?: number; klass?: number; opt?: boolean; flags?: number } = {}): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(options.id ?? 0x1234, 0);
  header.writeUInt16BE(options.flags ?? 0x0100, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(options.opt ? 1 : 0, 10);
  const labels = name.split('.').filter(Boolean).map((l) => Buffer.concat([Buffer.of(l.length), Buffer.from(l, 'latin1')]));
  const tail = Buffer.alloc(4);
  tail.writeUInt16BE(type, 0);
  tail.writeUInt16BE(options.klass ?? 1, 2);
  const opt = options.opt ? Buffer.from([0, 0, 41, 4, 208, 0, 0, 0, 0, 0, 0]) : Buffer.alloc(0);
  return Buffer.concat([header, ...labels, Buffer.of(0), tail, opt]);
}

describe('the DNS wire format, as the callback listener reads and answers it', () => {
  it('reads the one question of a query: id, name as it came, type, class; an EDNS record after it is ignored', () => {
    const read = readQuery(query('AbC.oob.Example.com', RTYPE.MX, { opt: true }));
    expect(read).toMatchObject({ kind: 'query', question: { id: 0x1234, recursionDesired: true, name: 'AbC.oob.Example.com', type: 15, klass: 1 } });
    expect(typeName(15)).toBe('MX');
    expect(typeName(99)).toBe('TYPE99');
  });

  it('writes bytes a name should not hold as \\DDD, so they never pass for a dot or a letter', () => {
    const read = readQuery(query('a.b\x00c.d', 1));
    expect(read?.kind === 'query' && read.question.name).toBe('a.b\\000c.d');
    const dotted = Buffer.concat([Buffer.alloc(12), Buffer.of(3), Buffer.from('a.b'), Buffer.of(0, 0, 1, 0, 1)]);
    dotted.writeUInt16BE(1, 4);
    expect(readQuery(dotted)).toMatchObject({ question: { name: 'a\\046b' } });
  });

  it('answers nothing to what is not a query (too short, too long, a response) and FORMERR or NOTIMP to a query it cannot read', () => {
    expect(readQuery(Buffer.alloc(11))).toBeNull();
    expect(readQuery(Buffer.alloc(MAX_QUERY_BYTES + 1))).toBeNull();
    expect(readQuery(query('x.example', 1, { flags: 0x8100 }))).toBeNull();
    expect(readQuery(query('x.example', 1, { flags: 0x2100 }))).toMatchObject({ kind: 'malformed', rcode: RCODE.notImp });
    const full = query('abc.example.com', 1);
    // cut inside the name, inside the type, before the class
    for (const end of [14, 18, full.length - 3, full.length - 1]) expect(readQuery(full.subarray(0, end))).toMatchObject({ kind: 'malformed', rcode: RCODE.formErr, id: 0x1234 });
    // no question, two questions, a compression pointer, a label over 63, a name over 255
    const none = Buffer.from(full);
    none.writeUInt16BE(0, 4);
    const two = Buffer.from(full);
    two.writeUInt16BE(2, 4);
    const pointer = Buffer.concat([full.subarray(0, 12), Buffer.of(0xc0, 0x0c, 0, 1, 0, 1)]);
    const longLabel = Buffer.concat([full.subarray(0, 12), Buffer.of(64), Buffer.alloc(64, 0x61), Buffer.of(0, 0, 1, 0, 1)]);
    const longName = query(Array(9).fill('a'.repeat(30)).join('.'), 1);
    for (const bad of [none, two, pointer, longLabel, longName]) expect(readQuery(bad)).toMatchObject({ kind: 'malformed', rcode: RCODE.formErr });
  });

  it('answers with the question echoed, authoritative, no recursion, records pointing at the asked name, TTL 0', () => {
    const read = readQuery(query('t.oob.example.com', RTYPE.A));
    if (read?.kind !== 'query') throw new Error('not read');
    const answer = answerTo(read.question, RCODE.noError, { authoritative: true, records: [{ type: RTYPE.A, address: '203.0.113.9' }, { type: RTYPE.AAAA, address: '2001:db8::1' }, { type: RTYPE.MX, preference: 10 }] });
    expect(answer.readUInt16BE(0)).toBe(0x1234);
    const flags = answer.readUInt16BE(2);
    expect(flags & 0x8000).toBeTruthy(); // a response
    expect(flags & 0x0400).toBeTruthy(); // authoritative
    expect(flags & 0x0080).toBe(0); // recursion not available
    expect(flags & 0xf).toBe(RCODE.noError);
    expect([answer.readUInt16BE(4), answer.readUInt16BE(6)]).toEqual([1, 3]);
    const q = read.question.raw;
    expect(answer.subarray(12, 12 + q.length)).toEqual(q);
    let at = 12 + q.length;
    const rr = () => {
      const r = { name: answer.readUInt16BE(at), type: answer.readUInt16BE(at + 2), ttl: answer.readUInt32BE(at + 6), data: answer.subarray(at + 12, at + 12 + answer.readUInt16BE(at + 10)) };
      at += 12 + r.data.length;
      return r;
    };
    expect(rr()).toEqual({ name: 0xc00c, type: 1, ttl: 0, data: Buffer.of(203, 0, 113, 9) });
    expect(rr()).toEqual({ name: 0xc00c, type: 28, ttl: 0, data: Buffer.from('20010db8000000000000000000000001', 'hex') });
    expect(rr()).toEqual({ name: 0xc00c, type: 15, ttl: 0, data: Buffer.of(0, 10, 0xc0, 0x0c) });
    expect(at).toBe(answer.length);
    // REFUSED: the question, no records, not authoritative
    const refused = answerTo(read.question, RCODE.refused);
    expect([refused.readUInt16BE(2) & 0x040f, refused.readUInt16BE(6), refused.length]).toEqual([RCODE.refused, 0, 12 + q.length]);
  });

  it('never throws on garbage: random packets, and every cut of real queries with random bytes flipped', () => {
    const seeds = [query('abc.oob.example.com', 1, { opt: true }), query('x'.repeat(63) + '.y.z', 28), query('a.b', 255, { klass: 3 })];
    let answered = 0;
    for (let i = 0; i < 3000; i++) {
      const base = i % 2 ? randomBytes(Math.floor(Math.random() * 80)) : Buffer.from(seeds[i % seeds.length]);
      const packet = base.subarray(0, Math.floor(Math.random() * (base.length + 1)));
      for (let flips = Math.floor(Math.random() * 4); flips > 0 && packet.length; flips--) packet[Math.floor(Math.random() * packet.length)] = Math.floor(Math.random() * 256);
      const read = readQuery(packet);
      if (!read) continue;
      // whatever was read can be answered, and the answer is small
      const reply = read.kind === 'query' ? answerTo(read.question, RCODE.refused) : answerTo(read, read.rcode);
      expect(reply.length).toBeLessThanOrEqual(12 + 260 + 4);
      answered++;
    }
    expect(answered).toBeGreaterThan(0);
  });
});
