import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { createHash } from 'node:crypto';
import { SecretBox } from '@gauntlet/auth';
import { AgentAlert, monitorDecider, streams } from '@gauntlet/domain';
import type { TargetDoc } from '@gauntlet/read-models';
import { judgeSessions, sessionMemoryOf } from '@gauntlet/scanner';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';
import { openSensitive } from '../../targets/target-secrets';
import { AgentEventBody, IngestResult } from '../dto';

export class IngestAgentEvents extends Command<{ account_id: string; target: TargetDoc; events: AgentEventBody[]; context: CommandContext }>() {}

/**
 * Judges the agent's traffic with the scan's judge: each event as it arrives, and each session as
 * a whole with what the target's monitor stream remembers of it (an instruction a tool result
 * carried, then the call it asked for; a value the agent was given, then sent out). Every alert is
 * recorded as an event (AgentAlertRaised), from which the relay delivers agent.alert to the target's
 * alert webhook, and what the batch changed of a session's memory as another (AgentSessionNoted).
 * Alert ids derive from the event and the rule, so a retried batch raises nothing twice.
 */
@CommandHandler(IngestAgentEvents)
export class IngestAgentEventsHandler implements ICommandHandler<IngestAgentEvents, IngestResult> {
  constructor(private readonly writePath: WritePath, private readonly clock: Clock, private readonly secrets: SecretBox) {}

  async execute({ account_id, target, events, context }: IngestAgentEvents): Promise<IngestResult> {
    const received = this.clock.iso();
    const stream = streams.monitor(target._id);
    const remembered = (await this.writePath.state(monitorDecider, stream)).sessions;
    // what the owner told us the agent holds, opened in memory for this batch only
    const judged = judgeSessions(events, (session) => sessionMemoryOf(remembered.get(session)), { canaries: target.canaries, sensitive: openSensitive(this.secrets, target.sensitive_encrypted) });
    const alerts: AgentAlert[] = judged.alerts.map((f) => {
      const e = events[f.event];
      const occurred_at = e.occurred_at ? new Date(e.occurred_at).toISOString() : received;
      const id = createHash('sha256')
        .update(JSON.stringify([target._id, e.session_id, e.kind, e.content, e.tool ?? null, e.occurred_at ?? `${context.correlationId}:${f.event}`, f.rule]))
        .digest('hex')
        .slice(0, 32);
      return { id: `alr_${id}`, session_id: e.session_id, kind: e.kind, rule: f.rule, severity: f.severity, detector: f.detector, matched: f.matched, occurred_at };
    });
    // remembered only where there is something to judge later by: an instruction read, a value given
    const sessions = [...judged.sessions].filter(([, m]) => m.instructions.length || m.given.length).map(([session_id, memory]) => ({ session_id, memory: { ...memory } }));
    await this.writePath.commit(
      monitorDecider,
      stream,
      { type: 'RaiseAgentAlerts', account_id, target_id: target._id, target_name: target.name, alerts, sessions, now: received },
      context,
    );
    return { accepted: events.length, alerts };
  }
}
