import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { REPORT_FORMAT_SPECS, REPORT_FORMATS, ReportFormat } from '@gauntlet/reports';
import type { CategoryScore, ScanScore } from '@gauntlet/domain';

export class ReportQuery {
  // the registry's names, and their labels in x-enum-descriptions (the dashboard's download buttons)
  @ApiProperty({ enum: REPORT_FORMATS, 'x-enum-descriptions': REPORT_FORMAT_SPECS.map((f) => f.label), description: 'free plan: json only; pro and enterprise: all' } as ApiPropertyOptions)
  @IsIn(REPORT_FORMATS)
  format: ReportFormat;
}

class CategoryScoreView implements CategoryScore {
  @ApiProperty() name: string;
  @ApiProperty() score: number;
  @ApiProperty() probes_run: number;
  @ApiProperty() probes_failed: number;
  @ApiProperty() findings: number;
}

/** a score's figures (ScanScore): the recorded one and the one after triage alike */
class ScoreFigures implements ScanScore {
  @ApiProperty({ minimum: 0, maximum: 100 }) overall_score: number;
  @ApiProperty({ example: 'B+' }) grade: string;
  @ApiProperty({ type: 'object', additionalProperties: { $ref: '#/components/schemas/CategoryScoreView' }, description: 'keyed by edition-qualified OWASP id, e.g. LLM01:2025' })
  category_scores: Record<string, CategoryScoreView>;
  @ApiProperty() critical_count: number;
  @ApiProperty() high_count: number;
  @ApiProperty() medium_count: number;
  @ApiProperty() low_count: number;
  @ApiProperty() scoring_version: string;
}

export class ScoreAfterTriageView extends ScoreFigures {
  @ApiProperty({ description: 'findings set aside by triage (false positive, accepted risk, fixed) as of as_of' }) findings_triaged_away: number;
  @ApiProperty({ format: 'date-time', description: 'triage is read as of this moment: an acceptance that expired since counts again' }) as_of: string;
}

/** the recorded score (as scanned), and how it must be shown */
export class ScoreView extends ScoreFigures {
  @ApiProperty({ description: 'true when the scan ended completed_partial: the score and grade cover only part of the plan, never to be shown without this mark' }) partial: boolean;
  @ApiProperty({ nullable: true, type: Number, minimum: 0, maximum: 1, description: 'the share of the plan that ran (1 for a completed scan)' }) coverage: number | null;
  @ApiProperty({ example: 'C (partial: 21% of the plan ran)', description: 'the grade as it must be shown: with the partial mark when the scan was partial' }) grade_label: string;
  @ApiProperty({
    type: ScoreAfterTriageView,
    description: 'the score without the findings triaged away, beside the recorded one above ("as scanned"), which never changes; equal to it when nothing is triaged away',
  })
  after_triage: ScoreAfterTriageView;
}

export { CategoryScoreView };

class ControlEvidenceView {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['pass', 'fail', 'not_tested'] }) status: string;
  @ApiProperty({ enum: ['findings', 'practice'], description: 'findings: the scan passes or fails it; practice: an organisational practice no scan can pass (its status stays not_tested), of which the scan is evidence' })
  basis: 'findings' | 'practice';
  @ApiProperty({ type: [String], description: 'ids of the vulnerabilities that make this control fail' }) findings: string[];
  @ApiProperty() probes_run: number;
  @ApiPropertyOptional({ type: [String] }) aliases?: string[];
  @ApiPropertyOptional({ type: [String] }) categories?: string[];
  @ApiPropertyOptional() evidence?: string;
}

class OwaspEvidenceView {
  @ApiProperty() edition: string;
  @ApiProperty({ type: [String] }) editions: string[];
  @ApiProperty({ type: [ControlEvidenceView] }) controls: ControlEvidenceView[];
}

class FrameworkEvidenceView {
  @ApiProperty() version: string;
  @ApiProperty({ type: [ControlEvidenceView] }) controls: ControlEvidenceView[];
}

class FrameworksView {
  @ApiProperty({ type: OwaspEvidenceView }) owasp_llm_top10: OwaspEvidenceView;
  @ApiProperty({ type: FrameworkEvidenceView }) nist_ai_rmf: FrameworkEvidenceView;
  @ApiProperty({ type: FrameworkEvidenceView }) soc2_cc7: FrameworkEvidenceView;
}

class IntegrityView {
  @ApiProperty({ description: 'events in the scan history' }) event_count: number;
  @ApiProperty({ description: 'SHA-256 chain over the history; recompute it from GET /api/scans/{id}/events' }) chain_sha256: string;
}

export class ComplianceEvidenceView {
  @ApiProperty({ format: 'uuid' }) scan_id: string;
  @ApiProperty({ format: 'date-time' }) generated_at: string;
  @ApiProperty({ type: FrameworksView }) frameworks: FrameworksView;
  @ApiProperty({ type: IntegrityView }) integrity: IntegrityView;
}
