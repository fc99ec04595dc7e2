import { Controller, Get, Param, ParseUUIDPipe, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../http/principal';
import { Clock } from '../platform/clock';
import { TargetReader } from '../targets/target-reader';
import { FleetQuery, FleetView, TrendQuery, TrendView } from './dto';
import { FleetReader } from './fleet-reader';

@ApiTags('fleet')
@ApiBearerAuth() @ApiSecurity('api_key')
@Controller('api/fleet')
export class FleetController {
  constructor(private readonly fleet: FleetReader, private readonly targets: TargetReader, private readonly clock: Clock) {}

  @Get()
  @ApiOperation({ summary: 'Every target with its last grade, the change since the scan before, open findings after triage, regressions and next scheduled run' })
  @ApiOkResponse({ type: FleetView })
  async list(@CurrentPrincipal() p: Principal, @Query() q: FleetQuery): Promise<FleetView> {
    return { targets: await this.fleet.fleet(p.account_id, q.tag), generated_at: this.clock.iso() };
  }

  @Get(':target_id/trend')
  @ApiOperation({ summary: 'A target\'s score and open findings over its finished scans, oldest first' })
  @ApiOkResponse({ type: TrendView })
  async trend(@CurrentPrincipal() p: Principal, @Param('target_id', new ParseUUIDPipe()) target_id: string, @Query() q: TrendQuery): Promise<TrendView> {
    await this.targets.owned(p.account_id, target_id);
    return { target_id, points: await this.fleet.trend(p.account_id, target_id, q.limit ?? 50) };
  }
}
