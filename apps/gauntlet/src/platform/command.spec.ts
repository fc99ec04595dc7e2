import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus, CommandHandler, CqrsModule, ICommandHandler } from '@nestjs/cqrs';
import { Command } from './command';

class CancelThing extends Command<{ account_id: string; thing_id: string; reason?: string }>() {}
class DeleteThing extends Command<{ account_id: string; thing_id: string }>() {}

@CommandHandler(CancelThing)
class CancelThingHandler implements ICommandHandler<CancelThing, string> {
  async execute({ account_id, thing_id, reason }: CancelThing) {
    return `cancel ${account_id}/${thing_id} ${reason ?? '-'}`;
  }
}

@CommandHandler(DeleteThing)
class DeleteThingHandler implements ICommandHandler<DeleteThing, string> {
  async execute({ account_id, thing_id }: DeleteThing) {
    return `delete ${account_id}/${thing_id}`;
  }
}

@Module({ imports: [CqrsModule], providers: [CancelThingHandler, DeleteThingHandler] })
class ThingsModule {}

describe('a command built from one props object', () => {
  it('carries its named fields, and is its own class', () => {
    const c = new CancelThing({ account_id: 'a1', thing_id: 't1' });
    expect(c).toMatchObject({ account_id: 'a1', thing_id: 't1' });
    expect(c).toBeInstanceOf(CancelThing);
    expect(c).not.toBeInstanceOf(DeleteThing);
    expect(c.constructor.name).toBe('CancelThing');
  });

  it("reaches its own handler on Nest's command bus, though two commands share a shape", async () => {
    const app = await NestFactory.createApplicationContext(ThingsModule, { logger: false });
    try {
      await app.init();
      const bus = app.get(CommandBus);
      expect(await bus.execute(new CancelThing({ account_id: 'a1', thing_id: 't1', reason: 'dup' }))).toBe('cancel a1/t1 dup');
      expect(await bus.execute(new DeleteThing({ account_id: 'a1', thing_id: 't1' }))).toBe('delete a1/t1');
    } finally {
      await app.close();
    }
  });
});
