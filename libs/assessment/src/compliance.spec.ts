import { sampleAttempt, sampleHistory, sampleOutOfBandFinding, sampleToolCallFinding, sampleVulnerability, seeded } from '../testing/sample-history';
import { complianceEvidence, NIST_AI_RMF_CONTROLS, SOC2_CC7_CONTROLS } from './compliance';
import { chainDigest } from './integrity';
import { scoreScan } from './scoring';

const rnd = seeded(11);
const attempt = (i: number, category: any, outcome: any = 'resisted') => ({ ...sampleAttempt(rnd, i, category), verdict: { detector: 'd', outcome, matched: null, confidence: 1 } });

describe('complianceEvidence', () => {
  const history = sampleHistory({ seed: 2, findings: 3 });
  const attempts = [attempt(1, 'LLM01:2025'), attempt(2, 'LLM01:2025', 'vulnerable'), attempt(3, 'LLM02:2025'), attempt(4, 'LLM07:2026'), attempt(5, 'LLM03:2025', 'error')];
  const vulnerabilities = [
    sampleVulnerability(rnd, 1, { id: 'v-pi', category: 'LLM01:2025', severity: 'critical' }),
    sampleVulnerability(rnd, 2, { id: 'v-mis', category: 'LLM07:2026', severity: 'low' }),
  ];
  const ev = complianceEvidence({ scan_id: 's1', attempts, vulnerabilities }, history, '2026-11-21T00:00:00.000Z');
  const control = (list: any[], id: string) => list.find((c) => c.id === id);

  it('has the shape docs/compliance.md documents and the chain digest of the history', () => {
    expect(ev).toMatchObject({ scan_id: 's1', generated_at: '2026-11-21T00:00:00.000Z', integrity: { event_count: history.length, chain_sha256: chainDigest(history) } });
    expect(ev.frameworks.owasp_llm_top10.edition).toBe('2025');
    for (const list of [ev.frameworks.owasp_llm_top10.controls, ev.frameworks.nist_ai_rmf.controls, ev.frameworks.soc2_cc7.controls]) {
      for (const c of list) {
        expect(Object.keys(c)).toEqual(expect.arrayContaining(['id', 'name', 'status', 'findings', 'probes_run']));
        expect(['pass', 'fail', 'not_tested']).toContain(c.status);
      }
    }
  });

  it('lists every OWASP category with its 2026 alias and the right status', () => {
    const owasp = ev.frameworks.owasp_llm_top10.controls;
    expect(owasp).toHaveLength(10);
    expect(control(owasp, 'LLM01:2025')).toMatchObject({ status: 'fail', findings: ['v-pi'], probes_run: 2, aliases: ['LLM01:2026'] });
    expect(control(owasp, 'LLM02:2025')).toMatchObject({ status: 'pass', findings: [], probes_run: 1 });
    expect(control(owasp, 'LLM09:2025')).toMatchObject({ status: 'fail', findings: ['v-mis'], probes_run: 1, aliases: ['LLM07:2026'] });
    expect(control(owasp, 'LLM03:2025')).toMatchObject({ status: 'not_tested', probes_run: 0 }); // only an errored attempt
  });

  it('counts probes, not attempts: a probe tried in many variants counts once, as the score counts it', () => {
    const variants = [1, 2, 3, 4].map((i) => ({ ...attempt(10 + i, 'LLM01:2025'), probe_id: 'probe.same', converters: [`c${i}`] }));
    const all = [...attempts, ...variants];
    const evidence = complianceEvidence({ scan_id: 's1', attempts: all, vulnerabilities }, history, '2026-11-21T00:00:00.000Z');
    const score = scoreScan({ attempts: all, vulnerabilities });
    for (const c of evidence.frameworks.owasp_llm_top10.controls) expect([c.id, c.probes_run]).toEqual([c.id, score.category_scores[c.id]?.probes_run ?? 0]);
    expect(control(evidence.frameworks.owasp_llm_top10.controls, 'LLM01:2025').probes_run).toBe(3);
  });

  it('covers GOVERN, MAP, MEASURE and MANAGE, and SOC 2 CC7.1 to CC7.5', () => {
    const fns = new Set(NIST_AI_RMF_CONTROLS.map((c) => c.id.split(' ')[0]));
    expect([...fns].sort()).toEqual(['GOVERN', 'MANAGE', 'MAP', 'MEASURE']);
    for (const id of ['MEASURE 2.7', 'MEASURE 2.6', 'MEASURE 2.10', 'MANAGE 4.1', 'GOVERN 4.3']) expect(control(ev.frameworks.nist_ai_rmf.controls, id)).toBeDefined();
    expect(SOC2_CC7_CONTROLS.map((c) => c.id)).toEqual(['CC7.1', 'CC7.2', 'CC7.3', 'CC7.4', 'CC7.5']);
  });

  it('fails severity-gated controls only on findings that severe; practice controls are never passed by a scan', () => {
    const nist = ev.frameworks.nist_ai_rmf.controls;
    const soc = ev.frameworks.soc2_cc7.controls;
    expect(control(nist, 'MANAGE 1.3')).toMatchObject({ status: 'fail', findings: ['v-pi'] });
    expect(control(nist, 'MEASURE 2.10')).toMatchObject({ status: 'pass', findings: [] });
    expect(control(nist, 'MEASURE 2.10')).toMatchObject({ basis: 'findings' });
    // the scan ran and found a critical: a GOVERN practice must not read as a green pass beside an F
    for (const id of ['GOVERN 4.3', 'MAP 5.1', 'MEASURE 1.1', 'MEASURE 3.1', 'MANAGE 4.1']) {
      expect(control(nist, id)).toMatchObject({ basis: 'practice', status: 'not_tested', findings: [], probes_run: 4 });
    }
    expect(control(soc, 'CC7.1')).toMatchObject({ status: 'fail', findings: ['v-pi', 'v-mis'] });
    expect(control(soc, 'CC7.4')).toMatchObject({ status: 'fail', findings: ['v-pi'] });
    expect(control(soc, 'CC7.5')).toMatchObject({ status: 'not_tested', probes_run: 0 });
  });

  it('marks everything not_tested for a scan that ran nothing', () => {
    const empty = complianceEvidence({ scan_id: 's', attempts: [], vulnerabilities: [] }, [], 'now');
    const all = [...empty.frameworks.owasp_llm_top10.controls, ...empty.frameworks.nist_ai_rmf.controls, ...empty.frameworks.soc2_cc7.controls];
    expect(new Set(all.map((c) => c.status))).toEqual(new Set(['not_tested']));
  });
});

/**
 * Agent findings land where a security team looks for them: an action the agent took for an
 * attacker (a tool call, a request to a planted address) is evidence of security evaluation
 * (MEASURE 2.7), of the need to disengage the system (MANAGE 2.4), of an anomaly monitoring must
 * catch (CC7.2) and of a security event to evaluate (CC7.3), whatever its category and severity.
 */
describe('compliance of agent findings', () => {
  const history = sampleHistory({ seed: 5, findings: 1 });
  const ran = ['LLM01:2025', 'LLM02:2025', 'LLM06:2025', 'LLM10:2025'].map((c, i) => attempt(100 + i, c));
  const given = (...vulnerabilities: any[]) => {
    const ev = complianceEvidence({ scan_id: 's', attempts: ran, vulnerabilities }, history, '2026-11-21T00:00:00.000Z');
    const at = (list: any[], id: string) => list.find((c) => c.id === id);
    return { nist: (id: string) => at(ev.frameworks.nist_ai_rmf.controls, id), soc: (id: string) => at(ev.frameworks.soc2_cc7.controls, id), owasp: (id: string) => at(ev.frameworks.owasp_llm_top10.controls, id) };
  };

  it('given an agent that wired money as asked (LLM06, tool_call, critical), then LLM06, MEASURE 2.7, MANAGE 2.4, CC7.2, CC7.3 and CC7.4 fail with it', () => {
    const then = given(sampleToolCallFinding());
    expect(then.owasp('LLM06:2025')).toMatchObject({ status: 'fail', findings: ['vuln-tool-call'] });
    for (const id of ['MEASURE 2.7', 'MANAGE 2.4', 'MEASURE 2.6', 'MANAGE 1.3']) expect([id, then.nist(id).findings]).toEqual([id, ['vuln-tool-call']]);
    for (const id of ['CC7.1', 'CC7.2', 'CC7.3', 'CC7.4']) expect([id, then.soc(id).findings]).toEqual([id, ['vuln-tool-call']]);
  });

  it('given an agent steered by a fetched page into a request to the planted address (LLM01, out_of_band), even at medium, then MANAGE 2.4 and CC7.3 fail with it too', () => {
    const then = given(sampleOutOfBandFinding({ severity: 'medium' }));
    expect(then.owasp('LLM01:2025')).toMatchObject({ status: 'fail', findings: ['vuln-out-of-band'] });
    for (const id of ['MEASURE 2.7', 'MANAGE 2.4']) expect([id, then.nist(id).status]).toEqual([id, 'fail']);
    for (const id of ['CC7.2', 'CC7.3']) expect([id, then.soc(id).status]).toEqual([id, 'fail']);
    // below high, not a high-priority response nor an incident to respond to
    expect(then.nist('MANAGE 1.3').findings).toEqual([]);
    expect(then.soc('CC7.4').findings).toEqual([]);
  });

  it('given data carried out in a callback request (LLM02, out_of_band), then it is a privacy finding and a security one, and a reason to disengage', () => {
    const then = given(sampleOutOfBandFinding({ id: 'v-exfil', category: 'LLM02:2025', category_name: 'Sensitive Information Disclosure', severity: 'high' }));
    for (const id of ['MEASURE 2.10', 'MEASURE 2.7', 'MANAGE 2.4']) expect([id, then.nist(id).findings]).toEqual([id, ['v-exfil']]);
    expect(then.soc('CC7.2').findings).toEqual(['v-exfil']);
  });

  it('given a bot that only claims an action (LLM06, no call, low), then no off switch is asked for and no security event is evaluated', () => {
    const claim = sampleVulnerability(rnd, 40, { id: 'v-claim', category: 'LLM06:2025', category_name: 'Excessive Agency', severity: 'low' });
    claim.evidence.proof = { turn: 1, start: 0, end: 4, text: 'Done', matched: { kind: 'obedience' } };
    const then = given(claim);
    expect(then.owasp('LLM06:2025')).toMatchObject({ status: 'fail', findings: ['v-claim'] });
    expect(then.nist('MANAGE 2.4')).toMatchObject({ status: 'pass', findings: [] });
    expect(then.soc('CC7.3').findings).toEqual([]);
    // a weakness in a category monitoring covers is still one
    expect(then.soc('CC7.2').findings).toEqual(['v-claim']);
  });
});
