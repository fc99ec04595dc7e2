import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { createHash } from 'node:crypto';
import { AgentAlert, monitorDecider, streams } from '@gauntlet/domain';
import type { TargetDoc } from '@gauntlet/read-models';
import { judgeAgentEvent } from '@gauntlet/scanner';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';
import { AgentEventBody, IngestResult } from '../dto';

export class IngestAgentEvents extends Command<{ account_id: string; target: TargetDoc; events: AgentEventBody[]; context: CommandContext }>() {}

/**
 * Judges each event of the agent's traffic as it arrives and records every alert as an event
 * (AgentAlertRaised), from which the relay delivers agent.alert to the target's alert webhook.
 * Alert ids derive from the event and the rule, so a retried batch raises nothing twice.
 */
@CommandHandler(IngestAgentEvents)
export class IngestAgentEventsHandler implements ICommandHandler<IngestAgentEvents, IngestResult> {
  constructor(private readonly writePath: WritePath, private readonly clock: Clock) {}

  async execute({ account_id, target, events, context }: IngestAgentEvents): Promise<IngestResult> {
    const received = this.clock.iso();
    const alerts: AgentAlert[] = [];
    events.forEach((e, index) => {
      const occurred_at = e.occurred_at ? new Date(e.occurred_at).toISOString() : received;
      for (const f of judgeAgentEvent(e, { canaries: target.canaries })) {
        const id = createHash('sha256')
          .update(JSON.stringify([target._id, e.session_id, e.kind, e.content, e.tool ?? null, e.occurred_at ?? `${context.correlationId}:${index}`, f.rule]))
          .digest('hex')
          .slice(0, 32);
        alerts.push({ id: `alr_${id}`, session_id: e.session_id, kind: e.kind, rule: f.rule, severity: f.severity, detector: f.detector, matched: f.matched, occurred_at });
      }
    });
    if (alerts.length) {
      await this.writePath.commit(
        monitorDecider,
        streams.monitor(target._id),
        { type: 'RaiseAgentAlerts', account_id, target_id: target._id, target_name: target.name, alerts },
        context,
      );
    }
    return { accepted: events.length, alerts };
  }
}
