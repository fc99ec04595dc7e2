import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { SCAN_STATUSES } from '@gauntlet/domain';

export class SeverityCountsView {
  @ApiProperty() critical: number;
  @ApiProperty() high: number;
  @ApiProperty() medium: number;
  @ApiProperty() low: number;
}

export class FleetScanView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: SCAN_STATUSES }) status: string;
  @ApiProperty() score: number;
  @ApiProperty() grade: string;
  @ApiProperty({ description: 'the scan ended completed_partial: its grade covers part of the plan' }) partial: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) finished_at: string | null;
}

export class RegressionView {
  @ApiProperty({ enum: ['found_again', 'score_drop'] }) reason: string;
  @ApiProperty({ type: [String] }) fingerprints: string[];
  @ApiProperty() score: number;
  @ApiProperty({ nullable: true, type: Number }) previous_score: number | null;
  @ApiProperty({ format: 'date-time' }) detected_at: string;
}

export class FleetFailureView {
  @ApiProperty({ format: 'uuid' }) scan_id: string;
  @ApiProperty({ nullable: true, type: String, description: 'why it failed, in the scan\'s words (the check\'s diagnosis, the error that ended it)' }) reason: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) finished_at: string | null;
}

export class FleetTargetView {
  @ApiProperty({ format: 'uuid' }) target_id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ type: FleetScanView, nullable: true, description: 'the newest scan that finished with a score' }) last_scan: FleetScanView | null;
  @ApiProperty({ nullable: true, type: Number, description: 'the score of the finished scan before it' }) previous_score: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'last score minus previous score; negative is worse' }) change: number | null;
  @ApiProperty({ type: SeverityCountsView, description: 'findings of the last scan still open after triage' }) open_findings: SeverityCountsView;
  @ApiProperty({ type: [RegressionView], description: 'regressions the last scan raised (scan.regressed)' }) regressions: RegressionView[];
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'the soonest due time of the schedules covering the target' }) next_run_at: string | null;
  @ApiProperty({ description: 'a scan of the target is pending or running' }) scanning: boolean;
  @ApiProperty({ type: FleetFailureView, nullable: true, description: 'the newest scan of the target, when it failed (newer than last_scan): the fleet shows the target failed, with the reason' }) last_failure: FleetFailureView | null;
}

export class FleetView {
  @ApiProperty({ type: [FleetTargetView] }) targets: FleetTargetView[];
  @ApiProperty({ format: 'date-time' }) generated_at: string;
}

export class FleetQuery {
  @ApiPropertyOptional({ description: 'only targets carrying this tag', maxLength: 50 })
  @IsOptional() @IsString() @MaxLength(50)
  tag?: string;
}

export class TrendPointView {
  @ApiProperty({ format: 'uuid' }) scan_id: string;
  @ApiProperty({ format: 'date-time' }) finished_at: string;
  @ApiProperty() score: number;
  @ApiProperty() grade: string;
  @ApiProperty() partial: boolean;
  @ApiProperty({ type: SeverityCountsView, description: 'that scan\'s findings still open after triage, as of now' }) open_findings: SeverityCountsView;
}

export class TrendView {
  @ApiProperty({ format: 'uuid' }) target_id: string;
  @ApiProperty({ type: [TrendPointView], description: 'finished scans, oldest first' }) points: TrendPointView[];
}

export class TrendQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 2, maximum: 200, default: 50, description: 'how many of the newest finished scans' })
  @IsOptional() @Type(() => Number) @IsInt() @Min(2) @Max(200)
  limit?: number;
}
