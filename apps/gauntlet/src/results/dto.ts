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
}

export { CategoryScoreView };
