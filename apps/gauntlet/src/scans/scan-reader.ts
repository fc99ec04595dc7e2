import { anyTriagedAway, applyTriage, ReportBase, scoreAfterTriage, TriagedVulnerability } from '@gauntlet/assessment';
import { ActorDirectory, actorIds, actorName, cancellation, cancelledBy, DIFF_BASE_STATUSES, diffBase, diffFindings, EarlierScan, effectiveTriage, FindingChanges, findingHistory, ScanScore, TargetFindingHistory, TriageDecision } from '@gauntlet/domain';

/** earlier scans of a target read for its history: enough for a daily scan's half year */
const EARLIER_SCANS = 200;
import type { AccountDoc, ApiKeyDoc, DocumentStore, ScanCoverageDoc, ScanDoc, TriageDoc, VulnerabilityDoc } from '@gauntlet/read-models';
import { ProblemException } from '../http/problem';
import { ScanHistory } from './scan-history';
import { NamedScanDoc, vulnerabilityView } from './scan-view';

/** Reads scans from the read models, answering 404 for absent scans and other accounts' scans alike. */
export class ScanReader {
  constructor(private readonly docs: DocumentStore, private readonly history: ScanHistory) {}

  get scans() {
    return this.docs.collection<ScanDoc>('scans');
  }

  async owned(account_id: string, scan_id: string): Promise<ScanDoc> {
    const doc = await this.scans.get(scan_id);
    if (!doc || doc.account_id !== account_id) throw new ProblemException(404, 'Scan not found.');
    return doc;
  }

  vulnerabilities(scan_id: string): Promise<VulnerabilityDoc[]> {
    return this.docs.collection<VulnerabilityDoc>('vulnerabilities').find({ scan_id }, { sort: { field: 'found_at', direction: 'asc' }, limit: 100_000 });
  }

  /** the target's triage decisions, the latest per fingerprint, each with who decided as people read it */
  async triageDecisions(target_id: string): Promise<TriageDecision[]> {
    const docs = await this.docs.collection<TriageDoc>('triage').find({ target_id }, { limit: 100_000 });
    const decisions = docs.map(({ _id, _rev, target_id: _t, account_id: _a, ...decision }) => decision as TriageDecision);
    const directory = await this.actors(decisions.map((d) => d.by));
    return decisions.map((d) => ({ ...d, by_name: actorName(d.by, directory) }));
  }

  /** the scans as people read them: who cancelled one by e-mail or API key name (the id stays in cancelled_by) */
  async named(docs: readonly ScanDoc[]): Promise<NamedScanDoc[]> {
    const by = docs.map(cancelledBy);
    const directory = await this.actors(by.filter((a): a is string => !!a));
    return docs.map((d, i) => ({ ...d, ...(by[i] && cancellation(by[i]!, directory)) }) as NamedScanDoc);
  }

  /** one of the account's scans as people read it (404 like owned) */
  async ownedNamed(account_id: string, scan_id: string): Promise<NamedScanDoc> {
    return (await this.named([await this.owned(account_id, scan_id)]))[0];
  }

  /** the e-mails and API key names of the actors named */
  async actors(actors: Iterable<string>): Promise<ActorDirectory> {
    const { accounts, apiKeys } = actorIds(actors);
    const [people, keys] = await Promise.all([
      Promise.all(accounts.map((id) => this.docs.collection<AccountDoc>('accounts').get(id))),
      Promise.all(apiKeys.map((id) => this.docs.collection<ApiKeyDoc>('api_keys').get(id))),
    ]);
    return {
      emails: new Map(people.filter((a): a is AccountDoc => !!a).map((a) => [a._id, a.email])),
      apiKeys: new Map(keys.filter((k): k is ApiKeyDoc => !!k).map((k) => [k._id, k.name])),
    };
  }

  /** the scan's findings with the target's triage as of now */
  async triagedFindings(scan: ScanDoc, now = new Date().toISOString()): Promise<TriagedVulnerability[]> {
    const [vulns, decisions] = await Promise.all([this.vulnerabilities(scan._id), this.triageDecisions(scan.target_id)]);
    return applyTriage(vulns.map(vulnerabilityView), decisions, scan.created_at, now);
  }

  /** the score without the findings triage set aside; the scan's history is read only when something is */
  async scoreAfterTriage(scan: ScanDoc & { score: ScanScore }, findings: readonly TriagedVulnerability[]): Promise<ScanScore> {
    if (!anyTriagedAway(findings)) return scan.score;
    const { attempts } = await this.history.record(scan._id);
    return scoreAfterTriage(scan.score, attempts, findings);
  }

  /** the previous finished scan of the same target (the diff's base), or null for the first */
  async base(scan: ScanDoc): Promise<ScanDoc | null> {
    // newest first, starting just before this scan: the first one that finished with results is the base
    let after = { value: scan.created_at as string | number | null, id: scan._id };
    for (let pages = 0; pages < 40; pages++) {
      const earlier = await this.scans.find({ account_id: scan.account_id, target_id: scan.target_id }, { sort: { field: 'created_at', direction: 'desc' }, limit: 50, after });
      const found = diffBase({ id: scan._id, status: scan.status, created_at: scan.created_at }, earlier.map((s) => ({ ...s, id: s._id })));
      if (found) return found;
      if (earlier.length < 50) return null;
      const last = earlier[earlier.length - 1];
      after = { value: last.created_at, id: last._id };
    }
    return null;
  }

  /** the base scan as a report compares with it */
  async reportBase(scan: ScanDoc): Promise<ReportBase | null> {
    const base = await this.base(scan);
    if (!base) return null;
    const beforeBase = await this.base(base);
    const [findings, earlier, history] = await Promise.all([this.vulnerabilities(base._id), beforeBase ? this.vulnerabilities(beforeBase._id) : [], this.findingHistory(scan)]);
    const summary = (f: VulnerabilityDoc) => ({ fingerprint: f.fingerprint, probe_id: f.probe_id, title: f.title, severity: f.severity, category: f.category, probes: f.probes ?? [f.probe_id], supersedes: f.supersedes ?? [] });
    return {
      scan_id: base._id, finished_at: base.finished_at, security_score: base.score?.overall_score ?? null, security_grade: base.score?.grade ?? null,
      findings: findings.map(summary), history, before_base_findings: earlier.map(summary),
    };
  }

  /**
   * The target's history before this scan, for the "new" rule: the fingerprints every earlier
   * finished scan found (newest first, the most recent EARLIER_SCANS of them) and what people
   * triaged fixed before this scan was requested.
   */
  async findingHistory(scan: ScanDoc): Promise<TargetFindingHistory> {
    const earlier: EarlierScan[] = [];
    let after = { value: scan.created_at as string | number | null, id: scan._id };
    for (let pages = 0; pages < EARLIER_SCANS / 50 && earlier.length < EARLIER_SCANS; pages++) {
      const page = await this.scans.find({ account_id: scan.account_id, target_id: scan.target_id }, { sort: { field: 'created_at', direction: 'desc' }, limit: 50, after });
      for (const s of page) {
        if (s._id === scan._id || s.created_at > scan.created_at || !(DIFF_BASE_STATUSES as readonly string[]).includes(s.status)) continue;
        // documents projected before fingerprints were kept, and the scan before the base (whose probes a fix is judged by): read the findings
        const findings = !s.fingerprints || earlier.length === 1 ? await this.vulnerabilities(s._id) : null;
        earlier.push({
          fingerprints: s.fingerprints ?? findings!.map((v) => v.fingerprint),
          ...(findings && { findings: findings.map((v) => ({ fingerprint: v.fingerprint, probe_id: v.probe_id, probes: v.probes, supersedes: v.supersedes })) }),
          // what the scan's findings superseded (probe:category) is history too
          ...(!findings && s.supersedes && { findings: s.supersedes }),
        });
      }
      if (page.length < 50) break;
      const last = page[page.length - 1];
      after = { value: last.created_at, id: last._id };
    }
    const decisions = await this.triageDecisions(scan.target_id);
    const fixed = decisions.filter((d) => effectiveTriage(d, scan.created_at, scan.created_at)?.lapsed === 'found_again').map((d) => d.fingerprint);
    return findingHistory(earlier, new Set(fixed));
  }

  /** what changed since the base scan (GET /api/scans/{id}/diff), "new" judged against the target's history */
  async changes(scan: ScanDoc, current?: readonly { id: string; fingerprint: string }[]): Promise<FindingChanges> {
    const [base, coverage, findings, history] = await Promise.all([
      this.base(scan),
      this.docs.collection<ScanCoverageDoc>('scan_coverage').get(scan._id),
      current ?? this.vulnerabilities(scan._id),
      this.findingHistory(scan),
    ]);
    const baseFindings = base ? await this.vulnerabilities(base._id) : [];
    return diffFindings(findings, base && { id: base._id, findings: baseFindings }, new Set(coverage?.probes ?? []), history);
  }
}
