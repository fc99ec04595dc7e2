import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiForbiddenResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../http/principal';
import { Ctx } from '../http/context';
import { decodeCursor, page } from '../http/pagination';
import { CommandContext } from '../platform/write-path';
import { ChangeSchedule } from './changing-schedule/change-schedule';
import { CreateSchedule } from './creating-schedule/create-schedule';
import { DeleteSchedule } from './deleting-schedule/delete-schedule';
import { CreateScheduleBody, ListSchedulesQuery, ScheduleList, ScheduleView, UpdateScheduleBody } from './dto';
import { ScheduleReader } from './schedule-reader';
import { scheduleView } from './schedule-view';

@ApiTags('schedules')
@ApiBearerAuth() @ApiSecurity('api_key')
@Controller('api/schedules')
export class SchedulesController {
  constructor(private readonly commands: CommandBus, private readonly schedules: ScheduleReader) {}

  @Post()
  @ApiOperation({
    summary: 'Scan a target, or every target of a tag, on a cron schedule or after each deploy',
    description: 'A body with cron is a cron schedule; trigger deploy makes one that fires once per deploy reported with POST /api/ci/deploy. Each due time (or deploy) starts at most one scan per target, through the same plan quota as other requests, and none on a target whose previous scan still runs. An account keeps at most its plan\'s number of schedules (SCHEDULE_LIMIT_FREE/_PRO/_ENTERPRISE, 5/100/1000 by default): one more is refused with 403.',
  })
  @ApiCreatedResponse({ type: ScheduleView })
  @ApiForbiddenResponse({ description: "the plan's schedule limit is reached (problem type urn:gauntlet:problem:schedule-limit)" })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateScheduleBody, @Ctx() ctx: CommandContext): Promise<ScheduleView> {
    return this.commands.execute(new CreateSchedule({ account_id: p.account_id, plan: p.plan, body, context: ctx }));
  }

  @Get()
  @ApiOperation({ summary: 'List schedules, newest first' })
  @ApiOkResponse({ type: ScheduleList })
  async list(@CurrentPrincipal() p: Principal, @Query() q: ListSchedulesQuery): Promise<ScheduleList> {
    const limit = q.limit ?? 50;
    const docs = await this.schedules.list(p.account_id, limit + 1, decodeCursor(q.cursor), q.target_id);
    const { items, next_cursor } = page(docs, limit, 'created_at');
    return { schedules: items.map(scheduleView), next_cursor };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One schedule, with its next due time and its latest firing' })
  @ApiOkResponse({ type: ScheduleView })
  async get(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<ScheduleView> {
    return scheduleView(await this.schedules.owned(p.account_id, id));
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change the time table, profile or catch-up policy; pause or resume (a deploy schedule: its profile, pause or resume)' })
  @ApiOkResponse({ type: ScheduleView })
  update(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Body() body: UpdateScheduleBody, @Ctx() ctx: CommandContext): Promise<ScheduleView> {
    return this.commands.execute(new ChangeSchedule({ account_id: p.account_id, schedule_id: id, body, context: ctx }));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a schedule (its history stays in the log)' })
  @ApiNoContentResponse()
  remove(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Ctx() ctx: CommandContext): Promise<void> {
    return this.commands.execute(new DeleteSchedule({ account_id: p.account_id, schedule_id: id, context: ctx }));
  }
}
