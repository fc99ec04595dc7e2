import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min, MinLength, ValidateIf } from 'class-validator';
import { CleanText } from '../http/clean-text';
import { SchemaRules } from '../http/openapi';
import { CI_FAIL_ON, CiFailOn, PROFILES, Profile } from '@gauntlet/domain';
import { BudgetFields } from '../scans/budget-fields';

/** query strings carry booleans as text: only "true" and "false" are booleans, anything else stays invalid */
const booleanText = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

export class CiScanBody extends BudgetFields {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  target_id: string;

  @ApiProperty({ minimum: 0, maximum: 100, description: 'the gate: a security score (after triage) below it fails the pipeline; optional with fail_on new' })
  @ValidateIf((o: CiScanBody) => o.fail_on !== 'new' || o.fail_threshold !== undefined)
  @IsInt() @Min(0) @Max(100)
  fail_threshold?: number;

  @ApiPropertyOptional({ enum: CI_FAIL_ON, default: 'score', description: 'score: fail below fail_threshold; new: fail only on findings new since the previous finished scan of the target (triaged ones excepted)' })
  @IsOptional() @IsIn(CI_FAIL_ON)
  fail_on?: CiFailOn;

  @ApiPropertyOptional({ default: false, description: 'gate a completed_partial scan on what it found instead of answering 424' })
  @IsOptional() @IsBoolean()
  allow_partial?: boolean;

  @ApiPropertyOptional({ description: 'answer only when the scan has ended (or timeout_seconds passed)', default: false })
  @IsOptional() @IsBoolean()
  wait?: boolean;

  @ApiPropertyOptional({ minimum: 1, maximum: 3600, default: 900, description: 'with wait: give up after this long (504)' })
  @IsOptional() @IsInt() @Min(1) @Max(3600)
  timeout_seconds?: number;

  @ApiPropertyOptional({ enum: PROFILES, default: 'standard' })
  @IsOptional() @IsIn(PROFILES)
  profile?: Profile;
}

export class CiWaitQuery {
  @ApiPropertyOptional({ minimum: 0, maximum: 3600, default: 0, description: 'hold the request up to this many seconds for the scan to end' })
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(3600)
  wait_seconds?: number;

  @ApiPropertyOptional({ enum: CI_FAIL_ON, description: 'override what the scan was started with' })
  @IsOptional() @IsIn(CI_FAIL_ON)
  fail_on?: CiFailOn;

  @ApiPropertyOptional({ type: Boolean, description: 'override what the scan was started with: gate a completed_partial scan instead of answering 424' })
  @IsOptional() @Transform(booleanText) @IsBoolean()
  allow_partial?: boolean;
}

export class CiPendingView {
  @ApiProperty({ format: 'uuid' }) scan_id: string;
  @ApiProperty({ enum: ['pending', 'running'] }) status: string;
}

export class CiResultView {
  @ApiProperty({ format: 'uuid' }) scan_id: string;
  @ApiProperty() status: string;
  @ApiProperty({ description: 'true when the scan ended completed_partial (gated only with allow_partial): the score and grade cover only part of the plan, never to be shown without this mark' }) partial: boolean;
  @ApiProperty({ nullable: true, type: Number, minimum: 0, maximum: 1, description: 'the share of the plan that ran (1 for a completed scan)' }) coverage: number | null;
  @ApiProperty({ nullable: true, type: Number }) security_score: number | null;
  @ApiProperty({ nullable: true, type: String }) security_grade: string | null;
  @ApiProperty({ example: 'C (partial: 21% of the plan ran)', description: 'security_grade as it must be shown: with the partial mark when the scan was partial' }) security_grade_label: string;
  @ApiProperty({ description: 'the score without the findings triaged away (what fail_threshold is compared with)' }) security_score_after_triage: number;
  @ApiProperty() security_grade_after_triage: string;
  @ApiProperty({ example: 'B (partial: 21% of the plan ran)', description: 'security_grade_after_triage as it must be shown, with the partial mark' }) security_grade_after_triage_label: string;
  @ApiProperty() fail_threshold: number;
  @ApiProperty({ enum: CI_FAIL_ON }) fail_on: string;
  @ApiProperty() allow_partial: boolean;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'the previous finished scan of the target the new findings are counted against' }) base_scan_id: string | null;
  @ApiProperty({ description: 'findings new since base_scan_id that triage has not set aside' }) new_findings: number;
  @ApiProperty({ type: [String] }) new_finding_ids: string[];
  @ApiProperty() passed: boolean;
  @ApiProperty() report_url: string;
}

@SchemaRules({ oneOf: [{ required: ['target_id'] }, { required: ['tag'] }] })
export class CiDeployBody {
  @ApiPropertyOptional({ format: 'uuid', description: 'the target that was deployed (or give tag)' })
  @IsOptional() @IsUUID()
  target_id?: string;

  @ApiPropertyOptional({ maxLength: 50, description: 'every live target carrying this tag was deployed (or give target_id)' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(50)
  tag?: string;

  @ApiPropertyOptional({
    maxLength: 200, example: 'github-run-8812934-1',
    description: 'the pipeline\'s id for this deploy (a run id, a commit, a release): the same deploy_id reported again fires nothing more and answers the same scans. Absent: every report is a new deploy',
  })
  @IsOptional() @IsString() @CleanText() @MinLength(1) @MaxLength(200)
  deploy_id?: string;

  @ApiPropertyOptional({ maxLength: 100, example: 'production', description: 'recorded with the firing, for the audit' })
  @IsOptional() @IsString() @CleanText() @MinLength(1) @MaxLength(100)
  environment?: string;

  @ApiPropertyOptional({ maxLength: 100, example: '2.4.1', description: 'recorded with the firing, for the audit' })
  @IsOptional() @IsString() @CleanText() @MinLength(1) @MaxLength(100)
  version?: string;
}

export class DeployScanView {
  @ApiProperty({ format: 'uuid' }) schedule_id: string;
  @ApiProperty({ format: 'uuid' }) target_id: string;
  @ApiProperty({ format: 'uuid', description: 'derived from (schedule, deploy_id, target): a retry names the same scan' }) scan_id: string;
}

export class DeploySkippedView {
  @ApiProperty({ format: 'uuid' }) schedule_id: string;
  @ApiProperty({ format: 'uuid' }) target_id: string;
  @ApiProperty({ enum: ['previous_scan_running'] }) reason: string;
}

export class DeployNotStartedView extends DeployScanView {
  @ApiProperty({ description: 'why the scan write path refused it (the plan\'s monthly quota, the target deleted meanwhile)' }) reason: string;
}

export class CiDeployView {
  @ApiProperty({ description: 'the deploy_id given, or the one the service gave this report' }) deploy_id: string;
  @ApiProperty({ type: [DeployScanView], description: 'the scans the deploy schedules asked for (empty when no active deploy schedule covers what was deployed)' }) scans: DeployScanView[];
  @ApiProperty({ type: [DeploySkippedView], description: 'targets passed over because their previous scan still runs' }) skipped: DeploySkippedView[];
  @ApiProperty({ type: [DeployNotStartedView] }) not_started: DeployNotStartedView[];
}
