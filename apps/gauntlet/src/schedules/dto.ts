import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, IsUUID, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { BUDGET_FIELD_NAMES, CATCH_UP_POLICIES, CatchUpPolicy, PROFILES, Profile, SCHEDULE_TRIGGERS, ScheduleTrigger } from '@gauntlet/domain';
import { SchemaRules } from '../http/openapi';
import { Clearable } from '../http/validation';
import { BudgetFields } from '../scans/budget-fields';
import { ScanBudgetView } from '../scans/dto';
import { PageQuery } from '../http/pagination';

const CRON = { description: 'five-field cron (minute hour day-of-month month day-of-week), read in timezone', example: '0 3 * * 1-5', maxLength: 100 };
const TIMEZONE = { description: 'IANA time zone the cron is read in', example: 'Europe/Paris', maxLength: 64 };
const CATCH_UP = { enum: CATCH_UP_POLICIES, description: 'due times passed while no scheduler ran: run once for the latest (run_once) or record them as missed (skip)' };
const TRIGGER = {
  enum: SCHEDULE_TRIGGERS,
  description: 'cron: at each due time of cron in timezone; deploy: after each deploy a pipeline reports with POST /api/ci/deploy (no cron, timezone or catch_up)',
};
/** a cron schedule needs its time table; a deploy schedule given any part of one (even null) is refused */
const isCron = (field: 'cron' | 'timezone' | 'catch_up') => (o: CreateScheduleBody) => o.trigger !== 'deploy' || o[field] !== undefined;

class ScheduleTimingFields extends BudgetFields {
  @ApiPropertyOptional({ enum: PROFILES, default: 'standard' })
  @IsOptional() @IsIn(PROFILES)
  profile?: Profile;

  @ApiPropertyOptional({ description: 'a paused schedule never fires; what fell due while paused is not run on resumption', default: false })
  @IsOptional() @IsBoolean()
  paused?: boolean;
}

@SchemaRules({
  allOf: [
    { oneOf: [{ required: ['target_id'] }, { required: ['tag'] }] },
    {
      oneOf: [
        { description: 'on a cron time table (trigger absent or cron)', properties: { trigger: { enum: ['cron'] } }, required: ['cron', 'timezone', 'catch_up'] },
        { description: 'after each deploy', properties: { trigger: { enum: ['deploy'] } }, required: ['trigger'], not: { anyOf: [{ required: ['cron'] }, { required: ['timezone'] }, { required: ['catch_up'] }] } },
      ],
    },
  ],
})
export class CreateScheduleBody extends ScheduleTimingFields {
  @ApiPropertyOptional({ ...TRIGGER, default: 'cron' })
  @IsOptional() @IsIn(SCHEDULE_TRIGGERS)
  trigger?: ScheduleTrigger;

  @ApiPropertyOptional({ format: 'uuid', description: 'the target to scan (or give tag)' })
  @IsOptional() @IsUUID()
  target_id?: string;

  @ApiPropertyOptional({ description: 'scan every live target carrying this tag at each due time (or give target_id)', maxLength: 50 })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(50)
  tag?: string;

  @ApiPropertyOptional({ ...CRON, description: `${CRON.description}; required for a cron schedule, refused for a deploy schedule` })
  @ValidateIf(isCron('cron')) @IsString() @MinLength(9) @MaxLength(100)
  cron?: string;

  @ApiPropertyOptional({ ...TIMEZONE, description: `${TIMEZONE.description}; required for a cron schedule, refused for a deploy schedule` })
  @ValidateIf(isCron('timezone')) @IsString() @MinLength(1) @MaxLength(64)
  timezone?: string;

  @ApiPropertyOptional({ ...CATCH_UP, description: `${CATCH_UP.description}; required for a cron schedule, refused for a deploy schedule` })
  @ValidateIf(isCron('catch_up')) @IsIn(CATCH_UP_POLICIES)
  catch_up?: CatchUpPolicy;
}

/** what a schedule scans and what fires it are fixed at creation: a different target, tag or trigger is a different schedule */
export class UpdateScheduleBody extends ScheduleTimingFields {
  @ApiPropertyOptional(CRON)
  @IsOptional() @IsString() @MinLength(9) @MaxLength(100)
  cron?: string;

  @ApiPropertyOptional(TIMEZONE)
  @IsOptional() @IsString() @MinLength(1) @MaxLength(64)
  timezone?: string;

  @ApiPropertyOptional(CATCH_UP)
  @IsOptional() @IsIn(CATCH_UP_POLICIES)
  catch_up?: CatchUpPolicy;
}
// a budget field given null is taken away (the rest of the budget stays); left out, it is kept
for (const field of BUDGET_FIELD_NAMES) Clearable()(UpdateScheduleBody.prototype, field);

export class PlannedScanView {
  @ApiProperty({ format: 'uuid' }) target_id: string;
  @ApiProperty({ format: 'uuid' }) scan_id: string;
}

export class SkippedTargetView {
  @ApiProperty({ format: 'uuid' }) target_id: string;
  @ApiProperty({ enum: ['previous_scan_running'] }) reason: string;
}

export class DeployView {
  @ApiProperty({ description: 'the pipeline\'s id of the deploy (or the one the service gave it): the same deploy reported again fires nothing more' }) deploy_id: string;
  @ApiProperty({ nullable: true, type: String }) environment: string | null;
  @ApiProperty({ nullable: true, type: String }) version: string | null;
}

export class ScheduleFiringView {
  @ApiProperty({ format: 'date-time', description: 'the due time this firing stands for (a deploy schedule: when the deploy was reported)' }) due_at: string;
  @ApiProperty({ format: 'date-time' }) fired_at: string;
  @ApiProperty({ description: 'earlier due times this firing covered (catch-up run_once)' }) missed: number;
  @ApiProperty({ type: [PlannedScanView] }) scans: PlannedScanView[];
  @ApiProperty({ type: [SkippedTargetView] }) skipped: SkippedTargetView[];
  @ApiPropertyOptional({ type: DeployView, description: 'a deploy schedule\'s firing: the deploy it answered' }) deploy?: DeployView;
}

export class ScheduleView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) target_id: string | null;
  @ApiProperty({ nullable: true, type: String }) tag: string | null;
  @ApiProperty(TRIGGER) trigger: ScheduleTrigger;
  @ApiProperty({ ...CRON, nullable: true, type: String, description: `${CRON.description} (null for a deploy schedule)` }) cron: string | null;
  @ApiProperty({ ...TIMEZONE, nullable: true, type: String, description: `${TIMEZONE.description} (null for a deploy schedule)` }) timezone: string | null;
  @ApiProperty({ enum: PROFILES }) profile: Profile;
  @ApiProperty({ ...CATCH_UP, nullable: true, description: `${CATCH_UP.description} (null for a deploy schedule)` }) catch_up: CatchUpPolicy | null;
  @ApiProperty({ type: () => ScanBudgetView, nullable: true, description: 'the budget each scan it asks for holds to, and the prices (null: none)' }) budget: ScanBudgetView | null;
  @ApiProperty() paused: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'the next due time (null while paused, and for a deploy schedule)' }) next_run_at: string | null;
  @ApiProperty({ type: ScheduleFiringView, nullable: true }) last_firing: ScheduleFiringView | null;
  @ApiProperty({ description: 'due times recorded as missed by the skip policy' }) missed_total: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class ScheduleList {
  @ApiProperty({ type: [ScheduleView] }) schedules: ScheduleView[];
  @ApiProperty({ nullable: true, type: String, description: 'pass as cursor for the next page; null on the last page' }) next_cursor: string | null;
}

export class ListSchedulesQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'only schedules of this target' })
  @IsOptional() @IsUUID()
  target_id?: string;
}
