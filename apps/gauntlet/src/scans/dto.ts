import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { CleanText } from '../http/clean-text';
import { IsBoolean, IsIn, IsISO8601, IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import {
  BUDGET_LIMITS, BUDGET_OUTLOOKS, EXPOSURE_CHANNELS, MAX_TRIAGE_REASON, PACE_SOURCES, PHASES, Phase, PROFILES, PROOF_KIND_MEANINGS, PROOF_KINDS, Profile, proofFactsOf, proofLinesOf, type ProofFact, type ProofKind, SCAN_ORIGINS, SCAN_STATUSES, ScanStatus, SEVERITIES, TOKEN_ESTIMATE,
  TRIAGE_STATE_LABELS, TRIAGE_STATES, TriageState,
} from '@gauntlet/domain';
import { BudgetFields } from './budget-fields';
import { PageQuery } from '../http/pagination';
import { READING_KINDS } from '@gauntlet/scanner';

export class RequestScanBody extends BudgetFields {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  target_id: string;

  @ApiPropertyOptional({ enum: PROFILES, default: 'standard', description: 'quick: a smoke test; standard: the full catalogue; deep: more amplification' })
  @IsOptional() @IsIn(PROFILES)
  profile?: Profile;

  @ApiPropertyOptional({
    default: false,
    description: "answer the scan's plan (200) without starting it: requests per phase, tokens, time and cost as ranges; nothing is sent to the target and no scan of the month's quota is spent",
  })
  @IsOptional() @IsBoolean()
  plan_only?: boolean;
}

export class CreatedScanView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['pending'] }) status: ScanStatus;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'uuid' }) target_id: string;
  @ApiProperty({ enum: PROFILES }) profile: Profile;
}

export class ListScansQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional() @IsUUID()
  target_id?: string;

  @ApiPropertyOptional({ enum: SCAN_STATUSES })
  @IsOptional() @IsIn(SCAN_STATUSES)
  status?: ScanStatus;
}

export class ScanStatusView {
  @ApiProperty({ enum: SCAN_STATUSES }) status: ScanStatus;
  @ApiProperty({ minimum: 0, maximum: 100, description: 'never goes down' }) progress: number;
  @ApiProperty({ enum: PHASES }) phase: Phase;
  @ApiProperty() findings_so_far: number;
  @ApiProperty({
    nullable: true, type: Number, minimum: 0,
    description: "a running scan only: seconds its planned work still takes at the target's throughput as the scanner measures it (the conversations its pacing keeps in flight over the time an answer takes); null until known, and once the scan has ended",
  })
  seconds_left: number | null;
  @ApiProperty({ nullable: true, type: String, description: 'why it failed, ended partially or was cancelled ("cancelled by ada@example.com", "cancelled by API key ci-pipeline"); null otherwise' }) reason: string | null;
  @ApiPropertyOptional({ description: 'a cancelled scan only: who cancelled it, account:<id> or apikey:<id>' }) cancelled_by?: string;
  @ApiPropertyOptional({ description: 'a cancelled scan only: who cancelled it as people read it, the account\'s e-mail or "API key <name>"' }) cancelled_by_name?: string;
  @ApiProperty({ description: 'true when the scan ended completed_partial: its score and grade cover only part of the plan' }) partial: boolean;
  @ApiProperty({ nullable: true, type: Number, minimum: 0, maximum: 1, description: 'the share of the plan that ran: recorded when a partial scan ended, 1 for a completed scan, null otherwise' })
  coverage: number | null;
}

class SeverityCounts {
  @ApiProperty() critical: number;
  @ApiProperty() high: number;
  @ApiProperty() medium: number;
  @ApiProperty() low: number;
}

class RequestsByPhase {
  @ApiPropertyOptional() recon?: number;
  @ApiPropertyOptional() probe?: number;
  @ApiPropertyOptional({ description: 'escalation against categories that resisted, then amplifying what worked' }) amplify?: number;
}

class RequestsView {
  @ApiProperty({ description: 'messages sent to the target so far (user turns; a multi-turn attack sends several)' }) total: number;
  @ApiProperty({ type: RequestsByPhase }) by_phase: RequestsByPhase;
  @ApiProperty({
    nullable: true, type: Number,
    description: "requests sent to the target so far as its budget and plan count them: every request, retries and an agent's tool rounds included (null: a scan from before they were counted)",
  })
  sent: number | null;
}

export class ScanSummaryView extends ScanStatusView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) target_id: string;
  @ApiProperty() target_name: string;
  @ApiProperty({ enum: PROFILES }) profile: Profile;
  @ApiProperty({ enum: SCAN_ORIGINS, description: 'who asked: a person over the api, a CI pipeline, or a schedule' }) origin: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) started_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) finished_at: string | null;
  @ApiProperty({ type: SeverityCounts }) severity_counts: SeverityCounts;
  @ApiProperty({ description: 'conversations held with the target (attempts), recon included' }) probes_run: number;
  @ApiProperty({ type: RequestsView }) requests: RequestsView;
  @ApiProperty({ nullable: true, type: Number }) security_score: number | null;
  @ApiProperty({ nullable: true, type: String }) security_grade: string | null;
  @ApiProperty({ type: [String], description: "what the scan says about itself, each once: the target's API refused tools and was scanned without them, an MCP server's tools could not be read, a chat page that renders what users type loaded addresses planted in our own messages (no finding)" }) notes: string[];
}

export class ScanList {
  @ApiProperty({ type: [ScanSummaryView] }) scans: ScanSummaryView[];
  @ApiProperty({ nullable: true, type: String }) next_cursor: string | null;
}

/** a call's arguments: the JSON object the agent sent, or its raw text when it was not JSON (still evidence) */
const TOOL_ARGUMENTS = { oneOf: [{ type: 'object', additionalProperties: true }, { type: 'string' }] };

class ToolCallView {
  @ApiProperty({ description: "the call's id, as the agent's API gave it; the tool turn that answers it names it in tool_call_id" }) id: string;
  @ApiProperty({ description: 'the tool called' }) name: string;
  @ApiProperty({ ...TOOL_ARGUMENTS, description: 'its arguments as the agent sent them: the parsed JSON object, or the raw text when it was not JSON' })
  arguments: Record<string, unknown> | string;
}

class TurnView {
  @ApiProperty({ enum: ['system', 'user', 'assistant', 'tool'], description: "tool: the result Gauntlet answered an agent's tool call with (nothing is ever executed)" }) role: string;
  @ApiProperty({ description: 'what was said; often empty on an assistant turn that only calls tools' }) content: string;
  @ApiPropertyOptional({ type: [ToolCallView], description: 'assistant turns: the tools the agent called in this turn, in order' }) tool_calls?: ToolCallView[];
  @ApiPropertyOptional({ description: 'tool turns: the id of the call this result answers' }) tool_call_id?: string;
  @ApiPropertyOptional({ description: "tool turns: the tool's name" }) name?: string;
}

export class ProofMatchView {
  @ApiProperty({
    enum: PROOF_KINDS,
    description: PROOF_KINDS.map((k) => `${k}: ${PROOF_KIND_MEANINGS[k]}`).join('; '),
  })
  kind: string;
  @ApiPropertyOptional({ description: 'the canary or sensitive value, by its label (never the value)' }) label?: string;
  @ApiPropertyOptional({ description: 'independent conversations the value came back in' }) occurrences?: number;
}

/** the schema of a fact as the proof records it, when it is not a string */
const FACT_SCHEMAS: Readonly<Record<string, ApiPropertyOptions>> = { arguments: { type: Object, ...TOOL_ARGUMENTS }, at: { type: String, format: 'date-time' } };

/**
 * Each proof kind's own facts, from their one declaration (PROOF_FACTS): each fact as the proof
 * records it, then each line made of facts that the view adds (`request`), each described by the
 * kinds that carry it and its label. A fact added there is in the API document with no edit here.
 */
function describedFacts(): Map<string, { kinds: ProofKind[]; label: string }> {
  const facts = new Map<string, { kinds: ProofKind[]; label: string }>();
  const add = (kind: ProofKind, f: ProofFact) => {
    const known = facts.get(f.name);
    if (known) known.kinds.push(kind);
    else facts.set(f.name, { kinds: [kind], label: f.label });
  };
  for (const kind of PROOF_KINDS) for (const f of proofFactsOf(kind)) add(kind, f);
  for (const kind of PROOF_KINDS) for (const f of proofLinesOf(kind)) if (f.parts) add(kind, f);
  return facts;
}
for (const [name, { kinds, label }] of describedFacts()) {
  ApiPropertyOptional({ ...(FACT_SCHEMAS[name] ?? { type: String }), description: `${kinds.join(', ')}: ${label}` })(ProofMatchView.prototype, name);
}

class ProofView {
  @ApiProperty({ description: 'index into evidence.turns of the answer that shows it' }) turn: number;
  @ApiProperty({ description: "offset of the span in that turn's content (in its decoded reading when read_as is set)" }) start: number;
  @ApiProperty() end: number;
  @ApiProperty({ description: 'the span itself, as the answer (or its reading) has it' }) text: string;
  @ApiProperty({ type: ProofMatchView }) matched: ProofMatchView;
  @ApiPropertyOptional({ description: 'the reading the offsets are in, when the answer was decoded first' }) read_as?: string;
  @ApiProperty({ description: 'what it shows, in the words every report and webhook use: "the instruction it obeyed", "the agent called send_email with to="a@evil.example"", "a request reached the planted address: GET /oob/…?d=… at …"' })
  shows: string;
  @ApiProperty({ description: 'where it is, in words: "turn 2", "turn 2, read as base64", "turn 2, as the page rendered it"' }) where: string;
  @ApiProperty({ description: 'true when the proof is something the target did (a call it made, a request that reached the planted address), shown as that act rather than as a quote of the answer' })
  act: boolean;
}

class EvidenceView {
  @ApiProperty({ type: [TurnView] }) turns: TurnView[];
  @ApiProperty() detector: string;
  @ApiProperty({ nullable: true, type: String, description: 'what the detector matched, as it is in the answer (its decoded form when read_as is set)' }) matched: string | null;
  @ApiPropertyOptional({ type: ProofView, description: 'the span of the answer that shows the weakness; every finding has one except some recorded before proofs existed' })
  proof?: ProofView;
  @ApiPropertyOptional({
    enum: READING_KINDS,
    description: 'how the answer was read back into plain text, when only that reading showed the weakness (an output filter evaded)',
  })
  read_as?: string;
  @ApiPropertyOptional({
    description: 'set when an answer was longer than the detectors judge: they read this many characters of each answer (told canaries and sensitive values were looked for, whole, in all of it)',
  })
  judged_chars?: number;
}

const HOW = 'how it got through, in one sentence: what the request went through, the form the answer was asked in and read back from, the turn it landed on';

class VariantView {
  @ApiProperty({ description: 'the probe this conversation answered: the way in (a finding recorded before a finding was a weakness: its own probe)' }) probe_id: string;
  @ApiProperty() technique: string;
  @ApiProperty({ type: [String] }) converters: string[];
  @ApiProperty({ description: HOW }) how: string;
  @ApiProperty({ enum: ['probe', 'amplify'] }) phase: string;
  @ApiProperty({ type: EvidenceView, description: 'turns shortened; every attempt is whole in GET /api/scans/{id}/events' }) evidence: EvidenceView;
  @ApiProperty({ format: 'date-time' }) found_at: string;
}

export class FindingTriageView {
  @ApiProperty({ enum: TRIAGE_STATES, description: 'what holds now: an accepted risk past expires_at, or a fixed weakness a later scan found again, is open' }) state: TriageState;
  @ApiProperty() reason: string;
  @ApiProperty({ description: 'who decided: account:<id> or apikey:<id>' }) by: string;
  @ApiPropertyOptional({ description: "who decided as people read it: the account's e-mail, or \"API key <name>\"" }) by_name?: string;
  @ApiProperty({ format: 'date-time', description: 'when it was decided' }) at: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expires_at: string | null;
  @ApiPropertyOptional({ enum: TRIAGE_STATES, description: 'what was decided, when it no longer holds' }) decided_state?: TriageState;
  @ApiPropertyOptional({ enum: ['expired', 'found_again'] }) lapsed?: string;
}

class FindingExposureView {
  @ApiProperty({ enum: ['credential', 'personal', 'code', 'wording'], description: "what it is: a credential, a person's data, an internal code, the prompt's wording" }) kind: string;
  @ApiProperty({ enum: ['canary', 'sensitive', 'recurrence'], description: 'how it is known to be held: told (a canary, a sensitive value), or seen to recur in independent conversations' }) source: string;
  @ApiPropertyOptional({ description: "the owner's label of a told value" }) label?: string;
  @ApiPropertyOptional({ description: 'what an untold value looks like: "database URL", "person\'s name", "email"' }) shape?: string;
  @ApiProperty({ description: 'the value masked, never the value: postgres://clinic_admin:***@db.lakeside.internal, E*** M***, sk-live-***' }) shown: string;
  @ApiProperty({ description: 'some answer gave all of it (else only parts of it came out)' }) whole: boolean;
  @ApiProperty({ description: 'independent conversations it came out in' }) conversations: number;
  @ApiProperty({ type: [String], description: 'the probes that drew it out' }) probes: string[];
  @ApiProperty({ format: 'date-time' }) first_seen: string;
  @ApiProperty({ enum: EXPOSURE_CHANNELS, isArray: true, description: "how it left, the most serious first: request (carried to an attacker's address), link (in a link or image address the answer built), answer (said)" }) via: string[];
  @ApiProperty({ description: 'a credential: rotate it, whoever read it can use it until then' }) rotate: boolean;
}

class ScanExposureView extends FindingExposureView {
  @ApiProperty({ description: 'the finding that holds it' }) vulnerability_id: string;
}

export class VulnerabilityView {
  @ApiProperty() id: string;
  @ApiProperty() probe_id: string;
  @ApiProperty({ example: 'LLM01:2025' }) category: string;
  @ApiProperty() category_name: string;
  @ApiProperty() title: string;
  @ApiProperty({ enum: SEVERITIES }) severity: string;
  @ApiProperty({ minimum: 0, maximum: 1 }) confidence: number;
  @ApiProperty() technique: string;
  @ApiProperty({ type: [String], description: 'what the request and the answer went through, e.g. base64, answer-hex, crescendo-5' }) converters: string[];
  @ApiProperty({ description: HOW }) how: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: EvidenceView }) evidence: EvidenceView;
  @ApiProperty() remediation: string;
  @ApiProperty({ type: [String] }) references: string[];
  @ApiProperty({ enum: ['probe', 'amplify'] }) phase: string;
  @ApiProperty({ format: 'date-time' }) found_at: string;
  @ApiProperty({
    description: 'the weakness, `<category>:<kind>:<identity>` (its category and what it exposed or did, a value only as a digest): the same in every scan of the target, whichever probes showed it',
    example: 'LLM02:2025:value:h3f9a1c0b2d4e6f70',
  })
  fingerprint: string;
  @ApiProperty({ type: [VariantView], description: 'other conversations that showed it, each with its probe and evidence: the strongest of each other probe first, then of each other way in; at most 25 (conversations counts them all)' }) variants: VariantView[];
  @ApiProperty({ type: [String], description: 'every probe that showed it (the ways in), sorted' }) probes: string[];
  @ApiProperty({ description: 'how many independent conversations showed it' }) conversations: number;
  @ApiProperty({ type: [String], description: 'the attempt of every conversation that showed it: each is whole in GET /api/scans/{id}/events' }) attempt_ids: string[];
  @ApiProperty({ type: [String], description: 'the fingerprints its instances had when a finding was a probe and a category (`pi-001:LLM01:2025`): a triage decision, a diff or a tracker keyed by one of them follows it here' }) supersedes: string[];
  @ApiProperty({ type: [FindingExposureView], description: 'the values it exposed, each once (what leaked: the scan detail lists them all in `exposures`)' }) exposures: FindingExposureView[];
  @ApiPropertyOptional({ type: FindingTriageView, description: 'present when someone triaged this fingerprint on the target (in this or an earlier scan)' }) triage?: FindingTriageView;
}

class ProvenWeaknessView {
  @ApiProperty() fingerprint: string;
  @ApiProperty() probe_id: string;
  @ApiProperty({ example: 'LLM01:2025' }) category: string;
  @ApiProperty() category_name: string;
  @ApiProperty() title: string;
  @ApiProperty({ format: 'date-time', description: 'when the attempt that first proved it was recorded' }) proven_at: string;
}

class LateCallbackHitView {
  @ApiProperty({ description: 'the attempt that planted the address' }) attempt_id: string;
  @ApiProperty({ example: 'GET', description: 'the HTTP method, or DNS for a lookup' }) method: string;
  @ApiProperty({ description: 'the path after /oob/<token>, or the whole path when the host carried the token ("" when none)' }) path: string;
  @ApiPropertyOptional({ description: 'the host name that carried the token (a lookup, or the Host of a request to <token>.<CALLBACK_DOMAIN>)' }) host?: string;
  @ApiPropertyOptional({ description: 'the query string without its "?"' }) query?: string;
  @ApiProperty({ description: 'the address the request came from' }) source: string;
  @ApiProperty({ format: 'date-time' }) at: string;
}

class CallbackHitsView {
  @ApiProperty({ description: 'requests that reached addresses the scan\'s attempts planted (bounded per address)' }) total: number;
  @ApiProperty({ description: 'of those, the ones that came after the scan ended: recorded on the scan, in no finding and not in the score' }) after_scan: number;
  @ApiProperty({ type: [LateCallbackHitView], description: 'the latest requests that came after the scan ended (at most 20)' }) late: LateCallbackHitView[];
}

export class ScanDetailView extends ScanSummaryView {
  @ApiProperty({
    type: [ScanExposureView],
    description: 'what leaked, once: every value the target holds that came out (a told value, a credential, a person\'s data seen to recur), masked, with the finding holding it; credentials first (rotate them). Empty for scans recorded before findings kept them',
  })
  exposures: ScanExposureView[];
  @ApiProperty({ type: CallbackHitsView, description: 'out-of-band requests to the addresses the scan planted; a late one (after the scan ended) changes no finding, score or webhook' })
  callback_hits: CallbackHitsView;
  @ApiProperty({ type: [VulnerabilityView], description: 'written at the analyze phase, each with its strongest evidence and variants' }) vulnerabilities: VulnerabilityView[];
  @ApiProperty({
    type: [ProvenWeaknessView],
    description: 'each weakness as soon as an attempt proved it, grouped as the findings are (findings_so_far counts them): what a running scan shows before its findings are written',
  })
  proven_so_far: ProvenWeaknessView[];
  @ApiProperty({ type: () => RequestPlanView, nullable: true, description: 'the plan the scan ran to, made as it started (null: not started yet, or started before plans were recorded)' })
  plan: RequestPlanView | null;
  @ApiProperty({ type: () => SpentView, nullable: true, description: "what it spent, beside its plan's range (null while it runs)" })
  spent: SpentView | null;
  @ApiProperty({ type: () => ScanBudgetView, nullable: true, description: 'what it was allowed to spend, and the prices (null: no budget)' })
  budget: ScanBudgetView | null;
  @ApiProperty({ type: () => UnfinishedView, nullable: true, description: 'a scan stopped at its budget: what it did not finish (null otherwise)' })
  unfinished: UnfinishedView | null;
}

export class TriageBody {
  // the domain's states, and how each reads in x-enum-descriptions (the dashboard's triage select and badges)
  @ApiProperty({ enum: TRIAGE_STATES, 'x-enum-descriptions': TRIAGE_STATES.map((s) => TRIAGE_STATE_LABELS[s]) } as ApiPropertyOptions)
  @IsIn(TRIAGE_STATES)
  state: TriageState;

  @ApiProperty({ minLength: 1, maxLength: MAX_TRIAGE_REASON, description: 'why: kept with the decision for whoever reads the finding next' })
  @IsString() @CleanText({ multiline: true }) @MinLength(1) @MaxLength(MAX_TRIAGE_REASON)
  reason: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'accepted_risk only: the acceptance lapses then and the finding is open again' })
  @IsOptional() @IsISO8601({ strict: true })
  expires_at?: string;
}

export class TriagedFindingView {
  @ApiProperty({ format: 'uuid' }) scan_id: string;
  @ApiProperty() vulnerability_id: string;
  @ApiProperty({ format: 'uuid' }) target_id: string;
  @ApiProperty({ description: 'the decision applies to this fingerprint on the target, in this scan and every later one' }) fingerprint: string;
  @ApiProperty({ type: FindingTriageView }) triage: FindingTriageView;
}

export class DiffView {
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'the previous scan of the target that finished with results (completed or completed_partial); null for the first' })
  base_scan_id: string | null;
  @ApiProperty({ type: [String], description: 'ids of findings of this scan never seen on the target before (or triaged fixed and found again)' }) new: string[];
  @ApiProperty({ type: [String], description: 'ids of findings of this scan seen on the target before' }) still_open: string[];
  @ApiProperty({ type: [String], description: 'fingerprints missing from this scan and from the base, both retesting them, after an earlier scan had them' }) fixed: string[];
  @ApiProperty({ type: [String], description: 'fingerprints the base had that this scan sent again and did not find this time (not yet fixed)' }) not_reproduced: string[];
  @ApiProperty({ type: [String], description: 'fingerprints the base had whose probe this scan did not send (another profile, or it ended early)' }) not_retested: string[];
}

// ---- the plan and what a scan spent (issue 41) -------------------------------------------------

class RangeView {
  @ApiProperty({ description: 'nothing escalates or is amplified, no agent calls a tool' }) min: number;
  @ApiProperty({ description: "the target's previous scan of this profile when there is one, else the shares of the budgets scans of similar targets spent" }) likely: number;
  @ApiProperty({ description: 'every escalation, attacker and amplification budget spent, every tool round an agent may take (errors and their retries aside)' }) max: number;
}

class PlannedPhasesView {
  @ApiProperty({ type: RangeView }) recon: RangeView;
  @ApiProperty({ type: RangeView }) probe: RangeView;
  @ApiProperty({ type: RangeView, description: 'escalation against categories that resisted, the attacker model\'s rewrites, then amplifying what worked' }) amplify: RangeView;
}

class PlannedTokensView {
  @ApiProperty({ type: RangeView, description: 'what the requests say: each prompt with the conversation before it, tool definitions offered' }) sent: RangeView;
  @ApiProperty({ type: RangeView, description: 'what the answers are expected to hold, at answer_tokens an answer' }) received: RangeView;
  @ApiProperty({ example: TOKEN_ESTIMATE, description: 'how tokens are counted (an estimate: each model tokenizes its own way)' }) estimate: string;
}

class ModelTokensView {
  @ApiProperty({ type: RangeView }) sent: RangeView;
  @ApiProperty({ type: RangeView }) received: RangeView;
}

class ModelPlanView {
  @ApiProperty({ type: RangeView }) requests: RangeView;
  @ApiProperty({ type: ModelTokensView }) tokens: ModelTokensView;
}

class PaceView {
  @ApiProperty({ description: 'requests a second the time is counted at' }) requests_per_second: number;
  @ApiProperty({
    enum: PACE_SOURCES,
    description: "told: the target's max_requests_per_second; measured: a preflight request; previous_scan: the pace the target's last completed scan kept; assumed: an answer in 2 s at the profile's first concurrency",
  })
  source: string;
}

class AnswerTokensView {
  @ApiProperty() per_answer: number;
  @ApiProperty({ enum: ['assumed', 'previous_scan'] }) source: string;
}

class PlannedBudgetView extends BudgetFields {
  @ApiProperty({ enum: BUDGET_OUTLOOKS, description: 'holds: even the plan\'s max stays within it; may_stop: a scan may reach it; stops: even the least the plan sends reaches it' }) outlook: string;
}

export class RequestPlanView {
  @ApiProperty({ enum: PROFILES }) profile: Profile;
  @ApiProperty({ type: RangeView, description: 'requests to the target' }) requests: RangeView;
  @ApiProperty({ type: PlannedPhasesView }) by_phase: PlannedPhasesView;
  @ApiProperty({ type: PlannedTokensView }) tokens: PlannedTokensView;
  @ApiProperty({ type: RangeView, description: 'wall time at pace' }) seconds: RangeView;
  @ApiProperty({ type: PaceView }) pace: PaceView;
  @ApiProperty({ type: AnswerTokensView }) answer_tokens: AnswerTokensView;
  @ApiPropertyOptional({ type: RangeView, description: 'at price_in and price_out, in their currency (only when prices are given)' }) cost?: RangeView;
  @ApiPropertyOptional({ type: ModelPlanView, description: "the attacker model's requests (ATTACKER_URL), apart from the target's" }) attacker?: ModelPlanView;
  @ApiPropertyOptional({ type: ModelPlanView, description: "the judge model's requests (JUDGE_URL), apart from the target's" }) judge?: ModelPlanView;
  @ApiPropertyOptional({ type: PlannedBudgetView, description: 'the budget given, and whether the plan reaches it' }) budget?: PlannedBudgetView;
}

class SpentRequestsView {
  @ApiProperty({ description: 'requests sent to the target, retries and tool rounds included' }) sent: number;
  @ApiProperty({ description: 'of them, retries of a request that failed or was throttled' }) retries: number;
  @ApiProperty({ type: RangeView, nullable: true, description: "the plan's range (null: the scan started before plans were recorded)" }) plan: RangeView | null;
  @ApiProperty({ type: Boolean, nullable: true, description: "whether sent is within the plan's min..max" }) within_plan: boolean | null;
}

class SpentTokensPlanView {
  @ApiProperty({ type: RangeView }) sent: RangeView;
  @ApiProperty({ type: RangeView }) received: RangeView;
}

class SpentTokensView {
  @ApiProperty() sent: number;
  @ApiProperty() received: number;
  @ApiProperty({ type: SpentTokensPlanView, nullable: true }) plan: SpentTokensPlanView | null;
  @ApiProperty({ example: TOKEN_ESTIMATE }) estimate: string;
}

class SpentCostView {
  @ApiProperty() spent: number;
  @ApiProperty({ type: RangeView, nullable: true }) plan: RangeView | null;
}

class ModelSpentView {
  @ApiProperty() requests: number;
  @ApiProperty() tokens_sent: number;
  @ApiProperty() tokens_received: number;
  @ApiProperty({ type: RangeView, nullable: true }) plan: RangeView | null;
}

export class SpentView {
  @ApiProperty({ type: SpentRequestsView }) requests: SpentRequestsView;
  @ApiProperty({ type: SpentTokensView }) tokens: SpentTokensView;
  @ApiProperty({ type: SpentCostView, nullable: true, description: 'at the scan\'s prices, in their currency (null without prices)' }) cost: SpentCostView | null;
  @ApiProperty({ description: 'seconds the scan ran against its target' }) seconds: number;
  @ApiPropertyOptional({ type: ModelSpentView, description: 'the attacker model, apart from the target' }) attacker?: ModelSpentView;
  @ApiPropertyOptional({ type: ModelSpentView, description: 'the judge model, apart from the target' }) judge?: ModelSpentView;
}

export class UnfinishedView {
  @ApiProperty({ enum: BUDGET_LIMITS, description: 'the limit the scan reached' }) limit: string;
  @ApiProperty({ type: [String], description: 'phases it did not finish: the one it was in and every later one that sends requests' }) phases: string[];
  @ApiProperty({ type: [String], description: 'OWASP categories whose work was cut' }) categories: string[];
}

export class ScanBudgetView extends BudgetFields {}
