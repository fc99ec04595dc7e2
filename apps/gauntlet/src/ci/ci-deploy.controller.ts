import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../http/principal';
import { Ctx } from '../http/context';
import { CommandContext } from '../platform/write-path';
import { CiDeployBody, CiDeployView } from './dto';
import { DeployAnswer, ReportDeploy } from './reporting-deploy/report-deploy';

@ApiTags('ci')
@ApiSecurity('api_key') @ApiBearerAuth()
@Controller('api/ci/deploy')
export class CiDeployController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(202)
  @ApiOperation({
    summary: 'Report a deploy: every active deploy schedule covering the target (or tag) fires once for it',
    description:
      'Answers 202 with the scans asked for, the targets passed over (previous scan still running) and the scans the plan refused. ' +
      'No active deploy schedule covering what was deployed is no error: 202 with empty lists, so a pipeline can report every deploy. ' +
      'An unknown target_id answers 404. The same deploy_id reported again fires nothing more and answers the same scans.',
  })
  @ApiAcceptedResponse({ type: CiDeployView })
  report(@CurrentPrincipal() p: Principal, @Body() body: CiDeployBody, @Ctx() ctx: CommandContext): Promise<DeployAnswer> {
    return this.commands.execute(
      new ReportDeploy({
        account_id: p.account_id, plan: p.plan, context: ctx,
        report: { target_id: body.target_id ?? null, tag: body.tag ?? null, deploy_id: body.deploy_id ?? null, environment: body.environment ?? null, version: body.version ?? null },
      }),
    );
  }
}
