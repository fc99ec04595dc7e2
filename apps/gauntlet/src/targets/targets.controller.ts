import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../http/principal';
import { Ctx } from '../http/context';
import { decodeCursor, page } from '../http/pagination';
import { CommandContext } from '../platform/write-path';
import { DeleteTarget } from './deleting-target/delete-target';
import { CheckTarget } from './checking-target/check-target';
import { ListTargetsQuery, RegisteredTargetView, RegisterTargetBody, TargetCheckView, TargetList, TargetView, UpdateTargetBody } from './dto';
import { RegisterTarget } from './registering-target/register-target';
import { TargetReader } from './target-reader';
import { targetView } from './target-view';
import { UpdateTarget } from './updating-target/update-target';

@ApiTags('targets')
@ApiBearerAuth() @ApiSecurity('api_key')
@Controller('api/targets')
export class TargetsController {
  constructor(private readonly commands: CommandBus, private readonly targets: TargetReader) {}

  @Post()
  @ApiOperation({ summary: 'Register a target (a chat page or a model API)' })
  @ApiCreatedResponse({ type: RegisteredTargetView })
  register(@CurrentPrincipal() p: Principal, @Body() body: RegisterTargetBody, @Ctx() ctx: CommandContext): Promise<RegisteredTargetView> {
    return this.commands.execute(new RegisterTarget({ account_id: p.account_id, body, context: ctx }));
  }

  @Get()
  @ApiOperation({ summary: 'List targets, newest first (with tag: only those carrying it)' })
  @ApiOkResponse({ type: TargetList })
  async list(@CurrentPrincipal() p: Principal, @Query() q: ListTargetsQuery): Promise<TargetList> {
    const limit = q.limit ?? 50;
    const docs = await this.targets.list(p.account_id, limit + 1, decodeCursor(q.cursor), q.tag);
    const { items, next_cursor } = page(docs, limit, 'created_at');
    return { targets: items.map(targetView), next_cursor };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One target' })
  @ApiOkResponse({ type: TargetView })
  async get(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<TargetView> {
    return targetView(await this.targets.owned(p.account_id, id));
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change some fields of a target' })
  @ApiOkResponse({ type: TargetView })
  update(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Body() body: UpdateTargetBody, @Ctx() ctx: CommandContext): Promise<TargetView> {
    return this.commands.execute(new UpdateTarget({ account_id: p.account_id, target_id: id, body, context: ctx }));
  }

  @Post(':id/check')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Test the connection: one harmless message, and what to change if it fails',
    description: 'API targets: one request to the endpoint the URL means, no retries. Browser targets: the page is opened and its input, send control and answer found; a screenshot comes back. Changes nothing; answers 200 whether or not the target did, within one deadline (TARGET_CHECK_DEADLINE_MS) after which a chat page that keeps the browser busy is reported as not settling. An account may have TARGET_CHECKS_IN_FLIGHT checks running at once and TARGET_CHECKS_PER_HOUR per hour (429 with Retry-After beyond).',
  })
  @ApiOkResponse({ type: TargetCheckView })
  check(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<TargetCheckView> {
    return this.commands.execute(new CheckTarget({ account_id: p.account_id, target_id: id }));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a target (its scan history is kept)' })
  @ApiNoContentResponse()
  remove(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Ctx() ctx: CommandContext): Promise<void> {
    return this.commands.execute(new DeleteTarget({ account_id: p.account_id, target_id: id, context: ctx }));
  }
}
