import type { CategoryScore, ScanExposure, Severity, Vulnerability } from '@gauntlet/domain';
import { canonicalCategoryId, exposureLine, exposureOrder, gradeLabel, isWeaknessFingerprint, OWASP_LLM_TOP10_2025, owaspCategory, proofLinesOf, proofSentence, SEVERITIES, type ProofLineName } from '@gauntlet/domain';

/** What the CI client knows about a finished scan: GET /api/scans/{id}, plus the score's categories when it could read them. */
export interface CiScanResult {
  id: string;
  target_id?: string | null;
  target_name?: string | null;
  target_url?: string | null;
  status?: string;
  security_score?: number | null;
  security_grade?: string | null;
  fail_threshold?: number | null;
  finished_at?: string | null;
  report_url?: string | null;
  vulnerabilities: Vulnerability[];
  category_scores?: Record<string, CategoryScore> | null;
  /** a completed_partial scan: its score covers only `coverage` (0..1) of the plan */
  partial?: boolean;
  coverage?: number | null;
  /** what leaked, once (the scan detail's `exposures`; absent: not known) */
  exposures?: ScanExposure[];
}

/** the grade as every report must show it: a partial scan's with its mark */
const shownGrade = (scan: CiScanResult): string | null =>
  scan.security_grade == null ? null : gradeLabel(scan.security_grade, { partial: scan.partial === true, coverage: scan.coverage ?? null });

/** GitHub code scanning reads `security-severity` (0.1-3.9 low, 4-6.9 medium, 7-8.9 high, 9+ critical). */
export const SECURITY_SEVERITY: Readonly<Record<Severity, string>> = { critical: '9.5', high: '8.0', medium: '5.5', low: '3.0' };
export const SARIF_LEVEL: Readonly<Record<Severity, 'error' | 'warning' | 'note'>> = { critical: 'error', high: 'error', medium: 'warning', low: 'note' };

const rank = (s: Severity) => SEVERITIES.indexOf(s); // 0 = critical

/**
 * The SARIF result property each proof kind's fact is in (PROOF_FACTS, as lines: a request on one
 * line). Code scanning integrations already read these names: a fact added to PROOF_FACTS does not
 * compile until it has its property here.
 */
export const SARIF_PROOF_PROPERTIES = {
  tool: 'tool',
  arguments: 'tool_arguments',
  request: 'request',
  at: 'request_at',
} as const satisfies Record<ProofLineName, string>;

/**
 * What proves a finding, for a machine reading SARIF: its kind and sentence, and for what the
 * target did its kind's facts, each one bounded line (null when the proof has none).
 */
function proofProperties(v: Vulnerability): Record<string, unknown> {
  const p = v.evidence?.proof;
  if (!p) return {};
  const m = p.matched;
  return {
    proof_kind: m.kind,
    proof: proofSentence(p),
    ...Object.fromEntries(proofLinesOf(m.kind).map((f) => [SARIF_PROOF_PROPERTIES[f.name], f.read(m) ?? null])),
  };
}

/** XML 1.0 text: escaped, with the characters XML cannot carry at all removed (model output can hold any). */
export function xmlText(value: unknown): string {
  return String(value ?? '')
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

function summarise(vs: Vulnerability[]): string {
  const counts = SEVERITIES.map((s) => [s, vs.filter((v) => v.severity === s).length] as const).filter(([, n]) => n > 0);
  return counts.map(([s, n]) => `${n} ${s}`).join(', ');
}

/**
 * JUnit XML: one testcase per OWASP category (2025 ids, 2026 id in the name), failing with the
 * findings in it, skipped when the scan did not probe it; plus one testcase for the score gate.
 */
export function toJunitXml(scan: CiScanResult): string {
  const byCategory = new Map<string, Vulnerability[]>();
  for (const v of scan.vulnerabilities) {
    const id = canonicalCategoryId(v.category);
    byCategory.set(id, [...(byCategory.get(id) ?? []), v]);
  }
  const probed = scan.category_scores ? new Set(Object.keys(scan.category_scores).map(canonicalCategoryId)) : null;
  const ids = [...OWASP_LLM_TOP10_2025.map((c) => c.id as string), ...[...byCategory.keys()].filter((k) => !owaspCategory(k)).sort()];

  const cases: string[] = [];
  let failures = 0;
  let skipped = 0;
  for (const id of ids) {
    const known = owaspCategory(id);
    const findings = (byCategory.get(id) ?? []).sort((a, b) => rank(a.severity) - rank(b.severity));
    const name = known ? `${id} ${known.name} (${known.successor2026.id})` : `${id} ${findings[0]?.category_name ?? ''}`.trim();
    const probesRun = scan.category_scores?.[id]?.probes_run;
    const head = `    <testcase classname="gauntlet.owasp_llm_top10" name="${xmlText(name)}"${probesRun !== undefined ? ` assertions="${probesRun}"` : ''}>`;
    if (findings.length) {
      failures++;
      const body = findings
        .map((v) => `[${v.severity}] ${v.title} (${v.id}, probe ${v.probe_id}, technique ${v.technique})\n  How it got through: ${v.how}\n  ${v.description}${v.evidence?.proof ? `\n  ${proofSentence(v.evidence.proof)}` : ''}\n  Remediation: ${v.remediation}`)
        .join('\n\n');
      cases.push(`${head}\n      <failure message="${xmlText(`${findings.length} finding(s): ${summarise(findings)}`)}" type="${findings[0].severity}">${xmlText(body)}</failure>\n    </testcase>`);
    } else if (probed && !probed.has(id)) {
      skipped++;
      cases.push(`${head}\n      <skipped message="not probed by this scan"/>\n    </testcase>`);
    } else {
      cases.push(`${head}</testcase>`);
    }
  }
  if (typeof scan.security_score === 'number' && typeof scan.fail_threshold === 'number') {
    const below = scan.security_score < scan.fail_threshold;
    const name = `security score ${scan.security_score} (${shownGrade(scan) ?? '?'}) >= fail threshold ${scan.fail_threshold}`;
    if (below) failures++;
    cases.push(
      below
        ? `    <testcase classname="gauntlet.gate" name="${xmlText(name)}">\n      <failure message="${xmlText(`score ${scan.security_score} is below the threshold ${scan.fail_threshold}`)}" type="threshold"/>\n    </testcase>`
        : `    <testcase classname="gauntlet.gate" name="${xmlText(name)}"></testcase>`,
    );
  }
  const suite = `Gauntlet scan ${scan.id}${scan.target_name ? ` of ${scan.target_name}` : ''}`;
  const props = [
    ['scan_id', scan.id], ['target_id', scan.target_id], ['target_name', scan.target_name], ['status', scan.status],
    ['security_score', scan.security_score], ['security_grade', shownGrade(scan)], ['fail_threshold', scan.fail_threshold], ['report_url', scan.report_url],
    ['partial', scan.partial], ['coverage', scan.coverage],
  ].filter(([, v]) => v !== undefined && v !== null);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="Gauntlet" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}">`,
    `  <testsuite name="${xmlText(suite)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}"${scan.finished_at ? ` timestamp="${xmlText(scan.finished_at.replace(/Z$/, ''))}"` : ''}>`,
    '    <properties>',
    ...props.map(([k, v]) => `      <property name="${xmlText(k)}" value="${xmlText(v)}"/>`),
    '    </properties>',
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/**
 * The rule a finding is a result of: the kind of weakness in its category (`LLM02:2025:value`: a
 * held value revealed, `LLM01:2025:instruction`: instructions followed), so every finding of one
 * kind is a result of one rule; a finding recorded before a finding was a weakness, its probe.
 */
const ruleOf = (v: Vulnerability) => (isWeaknessFingerprint(v.fingerprint) ? v.fingerprint.split(':').slice(0, 3).join(':') : v.probe_id);

/** SARIF 2.1.0: one rule per kind of weakness, one result per finding (a weakness), located at the target; what leaked in the run's properties. */
export function toSarif(scan: CiScanResult, tool: { version: string; informationUri?: string }): object {
  const byRule = new Map<string, Vulnerability[]>();
  for (const v of scan.vulnerabilities) byRule.set(ruleOf(v), [...(byRule.get(ruleOf(v)) ?? []), v]);
  const ruleIds = [...byRule.keys()].sort();
  const rules = ruleIds.map((id) => {
    const vs = byRule.get(id)!;
    const worst = vs.reduce((w, v) => (rank(v.severity) < rank(w.severity) ? v : w), vs[0]);
    const category = canonicalCategoryId(worst.category);
    const known = owaspCategory(category);
    return {
      id,
      name: id.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : '')).replace(/^./, (c) => c.toUpperCase()),
      shortDescription: { text: vs.length === 1 ? worst.title : `${worst.category_name}: ${worst.title}` },
      fullDescription: { text: worst.description },
      help: { text: worst.remediation },
      ...(worst.references[0] && { helpUri: worst.references[0] }),
      defaultConfiguration: { level: SARIF_LEVEL[worst.severity] },
      properties: {
        tags: ['security', 'ai', category, ...(known ? [known.successor2026.id] : [])],
        'security-severity': SECURITY_SEVERITY[worst.severity],
        precision: worst.confidence >= 0.9 ? 'very-high' : worst.confidence >= 0.7 ? 'high' : worst.confidence >= 0.4 ? 'medium' : 'low',
      },
    };
  });
  const location = scan.target_url ?? (scan.target_id ? `gauntlet-target:${scan.target_id}` : 'gauntlet-target:unknown');
  const results = scan.vulnerabilities.map((v) => ({
    ruleId: ruleOf(v),
    ruleIndex: ruleIds.indexOf(ruleOf(v)),
    level: SARIF_LEVEL[v.severity],
    // the call or the request itself is the evidence a reviewer reads first
    message: { text: `${v.title}: ${v.description}${v.evidence?.proof ? ` ${proofSentence(v.evidence.proof)}.` : ''}` },
    locations: [
      {
        physicalLocation: { artifactLocation: { uri: location } },
        logicalLocations: [{ name: scan.target_name ?? scan.target_id ?? 'target', kind: 'module' }],
      },
    ],
    // the weakness, not the way in: the same finding keeps its fingerprint whichever probes show it next time
    partialFingerprints: { 'gauntletFinding/v3': `${scan.target_id ?? ''}:${v.fingerprint}` },
    properties: {
      'security-severity': SECURITY_SEVERITY[v.severity],
      severity: v.severity,
      category: v.category,
      confidence: v.confidence,
      technique: v.technique,
      converters: v.converters,
      how: v.how,
      variants: v.variants.length,
      probes: v.probes,
      conversations: v.conversations,
      finding_id: v.id,
      fingerprint: v.fingerprint,
      ...(v.exposures.length && { exposures: v.exposures.map(exposureLine) }),
      detector: v.evidence?.detector,
      ...(v.evidence?.matched != null && { matched: v.evidence.matched }),
      ...proofProperties(v),
    },
  }));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'Gauntlet', version: tool.version, semanticVersion: tool.version, ...(tool.informationUri && { informationUri: tool.informationUri }), rules } },
        automationDetails: { id: `gauntlet/${scan.target_id ?? 'target'}/${scan.id}` },
        ...(scan.report_url && {
          properties: {
            report_url: scan.report_url, security_score: scan.security_score, security_grade: shownGrade(scan),
            // what leaked, once, right under the score: each value masked, the credentials to rotate
            ...(scan.exposures && { exposures: [...scan.exposures].sort(exposureOrder).map((e) => ({ ...e, line: exposureLine(e) })), rotate: scan.exposures.filter((e) => e.rotate).map(exposureLine) }),
            ...(scan.partial !== undefined && { partial: scan.partial, coverage: scan.coverage ?? null }),
          },
        }),
        results,
      },
    ],
  };
}
