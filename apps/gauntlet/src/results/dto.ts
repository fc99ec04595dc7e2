import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { REPORT_FORMATS, ReportFormat } from '@gauntlet/reports';

export class ReportQuery {
  @ApiProperty({ enum: REPORT_FORMATS, description: 'free plan: json only; pro and enterprise: all' })
  @IsIn(REPORT_FORMATS)
  format: ReportFormat;
}

class CategoryScoreView {
  @ApiProperty() name: string;
  @ApiProperty() score: number;
  @ApiProperty() probes_run: number;
  @ApiProperty() probes_failed: number;
  @ApiProperty() findings: number;
}

class ScoreFigures {
  @ApiProperty({ minimum: 0, maximum: 100 }) overall_score: number;
  @ApiProperty({ example: 'B+' }) grade: string;
  @ApiProperty({ type: 'object', additionalProperties: { $ref: '#/components/schemas/CategoryScoreView' } })
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

export class ScoreView {
  @ApiProperty({ minimum: 0, maximum: 100 }) overall_score: number;
  @ApiProperty({ example: 'B+' }) grade: string;
  @ApiProperty({ type: 'object', additionalProperties: { $ref: '#/components/schemas/CategoryScoreView' }, description: 'keyed by edition-qualified OWASP id, e.g. LLM01:2025' })
  category_scores: Record<string, CategoryScoreView>;
  @ApiProperty() critical_count: number;
  @ApiProperty() high_count: number;
  @ApiProperty() medium_count: number;
  @ApiProperty() low_count: number;
  @ApiProperty() scoring_version: string;
  @ApiProperty({
    type: ScoreAfterTriageView,
    description: 'the score without the findings triaged away, beside the recorded one above ("as scanned"), which never changes; equal to it when nothing is triaged away',
  })
  after_triage: ScoreAfterTriageView;
}

export { CategoryScoreView };
