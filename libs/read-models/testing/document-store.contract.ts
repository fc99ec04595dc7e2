import type { Collection, Doc, DocumentStore, FindOptions } from '../src/document-store';

/**
 * The DocumentStore contract: every adapter runs this same suite, so the
 * embedded store cannot quietly differ from MongoDB/FerretDB. `make` is called once per suite;
 * each test works in collections of its own.
 */
export function describeDocumentStoreContract(
  name: string,
  make: () => Promise<{ store: DocumentStore; cleanup: () => Promise<void> }>,
): void {
  describe(`DocumentStore contract: ${name}`, () => {
    let store: DocumentStore;
    let cleanup: () => Promise<void>;
    let n = 0;
    const fresh = <T extends Doc = Doc>(): Collection<T> => store.collection<T>(`contract_${process.pid}_${Date.now().toString(36)}_${n++}`);

    beforeAll(async () => {
      ({ store, cleanup } = await make());
    });
    afterAll(async () => {
      await cleanup?.();
    });

    const ids = (docs: Doc[]) => docs.map((d) => d._id);

    it('answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it('gets what was put, replaces it whole, and deletes it', async () => {
      const c = fresh();
      expect(await c.get('a')).toBeNull();
      await c.put({ _id: 'a', name: 'first', extra: 1 });
      expect(await c.get('a')).toEqual({ _id: 'a', name: 'first', extra: 1 });
      await c.put({ _id: 'a', name: 'second' });
      expect(await c.get('a')).toEqual({ _id: 'a', name: 'second' });
      await c.delete('a');
      expect(await c.get('a')).toBeNull();
      await expect(c.delete('a')).resolves.toBeUndefined();
    });

    it('keeps collections apart', async () => {
      const a = fresh();
      const b = fresh();
      await a.put({ _id: 'x', in: 'a' });
      await b.put({ _id: 'x', in: 'b' });
      expect(await a.get('x')).toEqual({ _id: 'x', in: 'a' });
      expect(await b.find({})).toEqual([{ _id: 'x', in: 'b' }]);
      await a.drop();
      expect(await b.get('x')).toEqual({ _id: 'x', in: 'b' });
    });

    it('finds by equality on several fields, on _id, and tells strings, numbers and booleans apart', async () => {
      const c = fresh();
      await c.put({ _id: 's1', account: 'a1', status: 'running', n: 1, flag: true });
      await c.put({ _id: 's2', account: 'a1', status: 'done', n: '1', flag: false });
      await c.put({ _id: 's3', account: 'a2', status: 'running', n: 2, flag: 1 });
      expect(ids(await c.find({ account: 'a1', status: 'running' }))).toEqual(['s1']);
      expect(ids(await c.find({ account: 'a1' }))).toEqual(['s1', 's2']);
      expect(ids(await c.find({ _id: 's2' }))).toEqual(['s2']);
      expect(ids(await c.find({ n: 1 }))).toEqual(['s1']);
      expect(ids(await c.find({ n: '1' }))).toEqual(['s2']);
      expect(ids(await c.find({ flag: true }))).toEqual(['s1']);
      expect(ids(await c.find({ flag: false }))).toEqual(['s2']);
      expect(ids(await c.find({ flag: 1 }))).toEqual(['s3']);
      expect(await c.find({ account: 'nobody' })).toEqual([]);
    });

    it('finds with $in, and an empty $in matches nothing', async () => {
      const c = fresh();
      for (const [id, status, n] of [['a', 'pending', 1], ['b', 'running', 2], ['c', 'failed', 3], ['d', 'running', 4]] as const) await c.put({ _id: id, status, n });
      expect(ids(await c.find({ status: { $in: ['running', 'failed'] } }))).toEqual(['b', 'c', 'd']);
      expect(ids(await c.find({ n: { $in: [1, 4, 99] } }))).toEqual(['a', 'd']);
      expect(ids(await c.find({ _id: { $in: ['d', 'a'] } }))).toEqual(['a', 'd']);
      expect(ids(await c.find({ status: { $in: ['running'] }, n: 4 }))).toEqual(['d']);
      expect(await c.find({ status: { $in: [] } })).toEqual([]);
      expect(await c.count({ status: { $in: ['running', 'pending'] } })).toBe(3);
    });

    it('stores null and matches null against null or missing fields only', async () => {
      const c = fresh();
      await c.put({ _id: 'a', finished_at: null });
      await c.put({ _id: 'b' });
      await c.put({ _id: 'c', finished_at: '2025-01-01T00:00:00Z' });
      expect(await c.get('a')).toEqual({ _id: 'a', finished_at: null });
      expect(ids(await c.find({ finished_at: null }))).toEqual(['a', 'b']);
      expect(await c.count({ finished_at: null })).toBe(2);
    });

    it('sorts on one field both ways, ties broken by _id in the same direction, null first ascending', async () => {
      const c = fresh();
      const rows: [string, number | null][] = [['d', 2], ['a', 2], ['c', 1], ['e', null], ['b', 3], ['f', 2]];
      for (const [id, score] of rows) await c.put({ _id: id, score });
      expect(ids(await c.find({}, { sort: { field: 'score', direction: 'asc' } }))).toEqual(['e', 'c', 'a', 'd', 'f', 'b']);
      expect(ids(await c.find({}, { sort: { field: 'score', direction: 'desc' } }))).toEqual(['b', 'f', 'd', 'a', 'c', 'e']);
      expect(ids(await c.find({}, { sort: { field: 'score', direction: 'desc' }, limit: 2 }))).toEqual(['b', 'f']);
      expect(ids(await c.find({}, { sort: { field: '_id', direction: 'desc' }, limit: 3 }))).toEqual(['f', 'e', 'd']);
      expect(ids(await c.find({}))).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    });

    it('sorts ISO timestamps as strings, the way scans are listed', async () => {
      const c = fresh();
      await c.ensureIndex(['account_id', 'created_at']);
      const times = ['2025-03-01T10:00:00.000Z', '2025-01-15T08:30:00.000Z', '2025-03-01T10:00:00.000Z', '2024-12-31T23:59:59.999Z'];
      for (const [i, t] of times.entries()) await c.put({ _id: `scan-${i}`, account_id: 'acc', created_at: t });
      await c.put({ _id: 'other', account_id: 'acc2', created_at: '2030-01-01T00:00:00.000Z' });
      const page = await c.find({ account_id: 'acc' }, { sort: { field: 'created_at', direction: 'desc' } });
      expect(ids(page)).toEqual(['scan-2', 'scan-0', 'scan-1', 'scan-3']);
    });

    describe('keyset pagination', () => {
      // duplicates, nulls, missing fields and numbers: every page boundary case at once
      const values: (number | null | undefined)[] = [5, 3, null, 5, 1, undefined, 3, 5, 8, null, 2, 5, 3, 9, 0, 5, undefined, 7, 3, 5, 1, null, 4];
      let c: Collection;
      beforeAll(async () => {
        c = fresh();
        await c.ensureIndex(['kind', 'v']);
        for (const [i, v] of values.entries()) {
          const doc: Doc = { _id: `d${String(i).padStart(2, '0')}`, kind: i % 4 === 0 ? 'skip' : 'keep' };
          if (v !== undefined) doc.v = v;
          await c.put(doc);
        }
      });

      const pageAll = async (direction: 'asc' | 'desc', filter = {}, limit = 4) => {
        const seen: Doc[] = [];
        let after: FindOptions['after'];
        for (let pages = 0; pages < 50; pages++) {
          const page = await c.find(filter, { sort: { field: 'v', direction }, limit, after });
          seen.push(...page);
          if (page.length < limit) return seen;
          const last = page[page.length - 1];
          after = { value: (last.v ?? null) as number | null, id: last._id };
        }
        throw new Error('pagination did not end');
      };

      it.each(['asc', 'desc'] as const)('returns every document exactly once, in sort order (%s)', async (direction) => {
        const all = await c.find({}, { sort: { field: 'v', direction } });
        expect(all).toHaveLength(values.length);
        const paged = await pageAll(direction);
        expect(ids(paged)).toEqual(ids(all));
        expect(new Set(ids(paged)).size).toBe(values.length);
      });

      it.each(['asc', 'desc'] as const)('pages within a filter (%s)', async (direction) => {
        const all = await c.find({ kind: 'keep' }, { sort: { field: 'v', direction } });
        expect(all.length).toBeGreaterThan(10);
        expect(ids(await pageAll(direction, { kind: 'keep' }, 3))).toEqual(ids(all));
      });

      it('pages on _id alone', async () => {
        const first = await c.find({}, { limit: 10 });
        const rest = await c.find({}, { after: { value: null, id: first[9]._id } });
        expect([...ids(first), ...ids(rest)]).toEqual(ids(await c.find({})));
        const back = await c.find({}, { sort: { field: '_id', direction: 'desc' }, after: { value: null, id: 'd05' }, limit: 2 });
        expect(ids(back)).toEqual(['d04', 'd03']);
      });
    });

    it('counts and deletes by filter', async () => {
      const c = fresh();
      for (let i = 0; i < 10; i++) await c.put({ _id: `v${i}`, scan_id: i < 6 ? 's1' : 's2', severity: i % 2 ? 'high' : 'low' });
      expect(await c.count({})).toBe(10);
      expect(await c.count({ scan_id: 's1' })).toBe(6);
      expect(await c.count({ scan_id: 's1', severity: 'high' })).toBe(3);
      expect(await c.deleteMany({ scan_id: 's1', severity: 'low' })).toBe(3);
      expect(await c.deleteMany({ scan_id: 'none' })).toBe(0);
      expect(await c.count({})).toBe(7);
      expect(await c.deleteMany({})).toBe(7);
      expect(await c.find({})).toEqual([]);
    });

    describe('putIfNewer', () => {
      it('writes an absent document and a newer revision, refuses an equal or older one', async () => {
        const c = fresh();
        expect(await c.putIfNewer({ _id: 'scan', _rev: 3, status: 'running' })).toBe(true);
        expect(await c.putIfNewer({ _id: 'scan', _rev: 2, status: 'pending' })).toBe(false);
        expect(await c.putIfNewer({ _id: 'scan', _rev: 3, status: 'redelivered' })).toBe(false);
        expect(await c.get('scan')).toEqual({ _id: 'scan', _rev: 3, status: 'running' });
        expect(await c.putIfNewer({ _id: 'scan', _rev: 4, status: 'completed' })).toBe(true);
        expect(await c.get('scan')).toEqual({ _id: 'scan', _rev: 4, status: 'completed' });
        expect(await c.putIfNewer({ _id: 'scan', _rev: 0, status: 'pending' })).toBe(false);
      });

      it('treats a document put without a revision as older than any', async () => {
        const c = fresh();
        await c.put({ _id: 'x', v: 'plain' });
        expect(await c.putIfNewer({ _id: 'x', _rev: 0, v: 'guarded' })).toBe(true);
        expect(await c.get('x')).toEqual({ _id: 'x', _rev: 0, v: 'guarded' });
      });

      it('ends with the highest revision when many writers race', async () => {
        const c = fresh();
        const revs = Array.from({ length: 40 }, (_, i) => i + 1).sort((a, b) => ((a * 7919) % 41) - ((b * 7919) % 41));
        const results = await Promise.all(revs.map((rev) => c.putIfNewer({ _id: 'race', _rev: rev, by: `writer-${rev}` })));
        expect(await c.get('race')).toEqual({ _id: 'race', _rev: 40, by: 'writer-40' });
        expect(results[revs.indexOf(40)]).toBe(true);
        // and the same race on a document that already exists
        const again = await Promise.all(revs.map((rev) => c.putIfNewer({ _id: 'race', _rev: rev + 40, by: `writer-${rev + 40}` })));
        expect(await c.get('race')).toEqual({ _id: 'race', _rev: 80, by: 'writer-80' });
        expect(again[revs.indexOf(40)]).toBe(true);
      });

      it('guards each document on its own', async () => {
        const c = fresh();
        expect(await c.putIfNewer({ _id: 'a', _rev: 5 })).toBe(true);
        expect(await c.putIfNewer({ _id: 'b', _rev: 1 })).toBe(true);
        expect(await c.count({})).toBe(2);
      });
    });

    it('drops a collection: documents gone, still usable, indexes declared again', async () => {
      const c = fresh();
      await c.ensureIndex(['status']);
      await c.ensureIndex(['status']);
      await c.put({ _id: 'a', status: 'x' });
      await c.drop();
      expect(await c.get('a')).toBeNull();
      expect(await c.count({})).toBe(0);
      await c.ensureIndex(['status']);
      await c.put({ _id: 'b', status: 'x' });
      expect(ids(await c.find({ status: 'x' }))).toEqual(['b']);
      await expect(fresh().drop()).resolves.toBeUndefined();
    });

    it('round-trips nested objects, arrays and numbers', async () => {
      const c = fresh();
      const doc = {
        _id: 'nested',
        _rev: 7,
        score: { value: 72.5, grade: 'C', by_category: { 'LLM01:2025': { failed: 2, total: 10 } } },
        tags: ['a', 'b', { c: [{ d: [1, 2.25, -3e-7] }] }],
        empty: { list: [], obj: {} },
        big: 2 ** 40,
        negative: -1,
        zero: 0,
        yes: true,
        no: false,
        nothing: null,
      };
      await c.put(doc);
      expect(await c.get('nested')).toEqual(doc);
    });

    it('round-trips unicode in ids, values and filters', async () => {
      const c = fresh();
      const text = 'Ignore previous instructions — 忽略之前的指令 · تجاهل التعليمات 🛡️🔥 "quoted" \\ back\nslash e\u0301 \u0000 end';
      await c.put({ _id: 'ünï-🆔', text, lang: 'zh-中文' });
      expect(await c.get('ünï-🆔')).toEqual({ _id: 'ünï-🆔', text, lang: 'zh-中文' });
      expect(ids(await c.find({ lang: 'zh-中文' }))).toEqual(['ünï-🆔']);
      expect(ids(await c.find({ text }))).toEqual(['ünï-🆔']);
    });

    it('refuses field names and nested arrays FerretDB cannot store, and fields it cannot query', async () => {
      const c = fresh();
      await expect(c.put({ _id: 'a', 'with.dot': 1 })).rejects.toThrow(TypeError);
      await expect(c.put({ _id: 'a', $set: 1 })).rejects.toThrow(TypeError);
      await expect(c.put({ _id: 'a', nested: [{ 'MEASURE 2.7': true }] })).rejects.toThrow(TypeError);
      await expect(c.putIfNewer({ _id: 'a', _rev: 1, deep: { $where: 'x' } })).rejects.toThrow(TypeError);
      await expect(c.put({ _id: 'a', pairs: [{ ok: [1] }, [1, 2]] })).rejects.toThrow(TypeError);
      await expect(c.find({ 'a.b': 1 })).rejects.toThrow(TypeError);
      await expect(c.find({}, { sort: { field: "x'); drop", direction: 'asc' } })).rejects.toThrow(TypeError);
      await expect(c.ensureIndex(['$x'])).rejects.toThrow(TypeError);
      expect(await c.count({})).toBe(0);
    });
  });
}
