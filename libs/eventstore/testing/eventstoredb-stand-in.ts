/**
 * A stand-in for an EventStoreDB server, for tests only (no EventStoreDB or KurrentDB server can be
 * installed where this project is built). It is a gRPC server on 127.0.0.1, built with @grpc/grpc-js
 * from the service definitions and protobuf messages that @eventstore/db-client ships in its
 * `generated/` folder, so the adapter runs through the real client, its protobuf encoding, its
 * revision and position handling and its error mapping, over a real socket. It is not a database:
 * the log lives in memory and ends with the process. Only tests import it (like the other
 * `libs/<lib>/testing/` folders, it is outside the lib's `src/` and its index): the service never
 * starts it.
 *
 * It speaks the subset of the protocol the adapter uses, the way EventStoreDB 23.10+ answers it:
 *   ServerFeatures.GetSupportedMethods  advertises Streams.Read and Streams.BatchAppend, so the client
 *                                       appends through BatchAppend as it does with a real 21.10+ server
 *   Streams.BatchAppend                 expected revision any, no_stream, stream_exists or exact; success
 *                                       carries the stream's revision and the log position of the last
 *                                       event; a mismatch is a google.rpc.Status (ALREADY_EXISTS) whose
 *                                       details pack event_store.client.WrongExpectedVersion
 *   Streams.Read, a stream              forwards from the start or a revision, up to a count; a stream
 *                                       never written answers the `stream_not_found` message
 *   Streams.Read, $all                  forwards from the start or a position (that record included),
 *                                       backwards from the end or a position (that record excluded)
 *   Streams.Read, subscription to $all  filtered by stream prefix or event type (prefixes or regex),
 *                                       from the start, the end or a position (strictly after it):
 *                                       confirmation, the backlog, `caught_up` once, then live events,
 *                                       with a checkpoint every checkpointIntervalMultiplier x 32 (or
 *                                       `max`) records considered
 * and writes the server's own `$statsCollected` events between ours, as a real node does, so stepping
 * over system events is exercised. A position that is not the start of a record (or the end of the
 * log) is refused with INVALID_ARGUMENT "Trying to read from an invalid position.", as 23.10+ does.
 *
 * Anything else (other methods, stream subscriptions, backward stream reads, server-side filters on
 * reads, resolving links, structured UUIDs, unfiltered $all subscriptions, empty appends) is refused
 * with UNIMPLEMENTED, so an adapter that starts to use more fails here instead of meeting a guess.
 * Not modelled: authentication and ACLs, deleted or tombstoned streams, stream metadata ($max-age...),
 * idempotent re-appends of the same event ids (the adapter never re-sends ids), append deadlines,
 * `fell_behind`, clustering and leader redirects.
 *
 * What this relies on, beyond the client's own source under node_modules/@eventstore/db-client/dist
 * (appendToStream/batchAppend.js and unpackError.js for appends and their errors, utils/ReadStream.js
 * and utils/Subscription.js for the read messages, utils/convertGrpcEvent.js for recorded events):
 * - the server (EventStore/EventStore, src/EventStore.Core/Services/Transport/Grpc): ServerFeatures.cs
 *   (which methods are listed), Streams.BatchAppend.cs and Status.cs (WrongExpectedVersion packed in a
 *   google.rpc.Status with code AlreadyExists; success with the commit position as both commit and
 *   prepare), WrongExpectedVersion.cs (current revision or current_no_stream; which expected field is
 *   set), Streams.Read.cs (recorded event metadata `type`, `created` in .NET ticks since the Unix epoch,
 *   `content-type`; `commit_position` on the read event for $all, `no_position` for stream reads;
 *   StreamNotFound as a message), Enumerator.AllSubscriptionFiltered.cs (confirmation first, start
 *   after the record at the given position, checkpoint interval = multiplier x max search window,
 *   32 by default, caught-up when the backlog is read), RpcExceptions.cs (invalid position);
 * - the client's tests against real servers (EventStore-Client-NodeJS packages/test/src/streams):
 *   readAll from a position returns the event at it, subscribeToAll from an append's position starts
 *   after that event, `caughtUp` from 23.10, the WrongExpectedVersionError fields for each case.
 * The same facts are checked against a real server whenever EVENTSTORE_URL is set
 * (eventstoredb-event-store.int.spec.ts): a real server stays the final word.
 */
import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { Any } from 'google-protobuf/google/protobuf/any_pb';
import { Empty as ProtobufEmpty } from 'google-protobuf/google/protobuf/empty_pb';
import { Code } from '@eventstore/db-client/generated/code_pb';
import { ServerFeaturesService } from '@eventstore/db-client/generated/serverfeatures_grpc_pb';
import { SupportedMethod, SupportedMethods } from '@eventstore/db-client/generated/serverfeatures_pb';
import { AllStreamPosition, BadRequest, Empty, StreamIdentifier, UUID, WrongExpectedVersion } from '@eventstore/db-client/generated/shared_pb';
import { Status } from '@eventstore/db-client/generated/status_pb';
import { StreamsService } from '@eventstore/db-client/generated/streams_grpc_pb';
import { BatchAppendReq, BatchAppendResp, ReadReq, ReadResp } from '@eventstore/db-client/generated/streams_pb';

export interface EventStoreDbStandIn {
  /** an insecure connection string for the client: `esdb://127.0.0.1:<port>?tls=false` */
  readonly url: string;
  /** requests served so far, by operation: what proves a test went over the wire */
  calls(): Record<string, number>;
  /** writes `count` of the server's own events, as a real node does between ours */
  writeSystemEvents(count: number): void;
  /** stops serving: open calls are cancelled */
  close(): Promise<void>;
}

export interface StandInOptions {
  /** one `$statsCollected` event before every n-th append (default 3; 0: never) */
  systemEventEvery?: number;
}

/** `ReadBatchSize` of the server's enumerators: the search window when a filter names none */
const DEFAULT_SEARCH_WINDOW = 32;
/** roughly what a prepare record takes in the transaction file besides its strings and bodies */
const RECORD_OVERHEAD = 88n;
const STATS_STREAM = '$stats-127.0.0.1:2113';
const STREAMS_SERVICE = 'event_store.client.streams.streams';
const VERSION = 'stand-in (EventStoreDB 23.10 protocol subset)';

export async function startEventStoreDbStandIn(options: StandInOptions = {}): Promise<EventStoreDbStandIn> {
  const log = new TransactionLog();
  const calls: Record<string, number> = {};
  const count = (operation: string) => void (calls[operation] = (calls[operation] ?? 0) + 1);
  const systemEventEvery = options.systemEventEvery ?? 3;
  let appends = 0;
  let closing = false;
  /** wakes every waiting subscription, so that it sees the stand-in closing */
  const wakeOnClose = new Set<() => void>();

  const writeSystemEvents = (n: number) => {
    for (let i = 0; i < n; i++) log.write(STATS_STREAM, [{ id: randomUUID(), type: '$statsCollected', isJson: true, data: json({ proc: { mem: 1 } }), metadata: new Uint8Array() }]);
  };
  // a new database is not empty either
  writeSystemEvents(1);

  const server = new grpc.Server();
  server.addService(ServerFeaturesService, {
    getSupportedMethods: (_call: grpc.ServerUnaryCall<unknown, SupportedMethods>, callback: grpc.sendUnaryData<SupportedMethods>) => {
      count('ServerFeatures.GetSupportedMethods');
      const reply = new SupportedMethods();
      reply.setEventStoreServerVersion(VERSION);
      reply.setMethodsList(
        ['read', 'batchappend'].map((name) => {
          const method = new SupportedMethod();
          method.setServiceName(STREAMS_SERVICE);
          method.setMethodName(name);
          return method;
        }),
      );
      callback(null, reply);
    },
  });
  server.addService(StreamsService, {
    batchAppend: (call: grpc.ServerDuplexStream<BatchAppendReq, BatchAppendResp>) => {
      // one long-lived call per client carries every append, told apart by correlation id
      const pending = new Map<string, PendingAppend>();
      call.on('data', (request: BatchAppendReq) => {
        const correlation = request.getCorrelationId();
        const key = correlation?.getString() ?? '';
        const requestOptions = request.getOptions();
        if (requestOptions) {
          const stream = requestOptions.getStreamIdentifier();
          if (!stream) return void call.write(answer(correlation, '', badRequest('Required field StreamIdentifier not set.')));
          pending.set(key, { stream: streamName(stream), expected: expectedOf(requestOptions), messages: [] });
        }
        const append = pending.get(key);
        // as the server does: the rest of an append whose first part it never saw is dropped
        if (!append) return;
        append.messages.push(...request.getProposedMessagesList());
        if (!request.getIsFinal()) return;
        pending.delete(key);
        count('Streams.BatchAppend (append)');
        if (systemEventEvery > 0 && ++appends % systemEventEvery === 0) writeSystemEvents(1);
        call.write(answer(correlation, append.stream, appendTo(log, append)));
      });
      call.on('end', () => call.end());
      call.on('error', () => undefined);
    },
    read: (call: grpc.ServerWritableStream<ReadReq, ReadResp>) => {
      serveRead(call).catch((error: unknown) => {
        if (!call.cancelled && !call.destroyed) call.emit('error', isStatus(error) ? error : { code: grpc.status.INTERNAL, details: String(error) });
      });
    },
  });

  async function serveRead(call: grpc.ServerWritableStream<ReadReq, ReadResp>): Promise<void> {
    const read = call.request.getOptions();
    if (!read) throw invalid('options are required');
    if (read.getUuidOption()?.getContentCase() !== ReadReq.Options.UUIDOption.ContentCase.STRING) throw refused('structured UUIDs');
    if (read.getResolveLinks()) throw refused('resolving links');
    const kind = read.getStreamOptionCase();
    const counted = read.getCountOptionCase() === ReadReq.Options.CountOptionCase.COUNT;
    const forwards = read.getReadDirection() === ReadReq.Options.ReadDirection.FORWARDS;
    const unfiltered = read.getFilterOptionCase() === ReadReq.Options.FilterOptionCase.NO_FILTER;

    if (kind === ReadReq.Options.StreamOptionCase.STREAM && counted && forwards && unfiltered) {
      count('Streams.Read (stream forwards)');
      const streamOptions = read.getStream()!;
      const id = streamOptions.getStreamIdentifier();
      if (!id) throw invalid('a stream identifier is required');
      const name = streamName(id);
      const records = log.stream(name);
      if (!records) {
        const notFound = new ReadResp.StreamNotFound();
        notFound.setStreamIdentifier(identifier(name));
        const response = new ReadResp();
        response.setStreamNotFound(notFound);
        await send(call, response);
        return void call.end();
      }
      const revisionCase = streamOptions.getRevisionOptionCase();
      if (revisionCase === ReadReq.Options.StreamOptions.RevisionOptionCase.END) throw refused('stream reads from the end');
      const from = revisionCase === ReadReq.Options.StreamOptions.RevisionOptionCase.REVISION ? BigInt(streamOptions.getRevision()) : 0n;
      const wanted = records.filter((r) => r.revision >= from).slice(0, limit(read.getCount()));
      for (const record of wanted) if (!(await send(call, eventResponse(record, false)))) return;
      return void call.end();
    }

    if (kind === ReadReq.Options.StreamOptionCase.ALL && counted && unfiltered) {
      count(`Streams.Read ($all ${forwards ? 'forwards' : 'backwards'})`);
      const at = log.indexOf(read.getAll()!);
      const records = log.records.slice();
      const wanted = forwards ? records.slice(at, at + limit(read.getCount())) : records.slice(0, at).reverse().slice(0, limit(read.getCount()));
      for (const record of wanted) if (!(await send(call, eventResponse(record, true)))) return;
      return void call.end();
    }

    if (kind === ReadReq.Options.StreamOptionCase.ALL && read.getCountOptionCase() === ReadReq.Options.CountOptionCase.SUBSCRIPTION && forwards) {
      if (unfiltered) throw refused('unfiltered subscriptions to $all');
      count('Streams.Read (subscription to $all)');
      return subscribe(call, read);
    }
    throw refused('this kind of read');
  }

  async function subscribe(call: grpc.ServerWritableStream<ReadReq, ReadResp>, read: ReadReq.Options): Promise<void> {
    const filter = read.getFilter()!;
    const matches = filterOf(filter);
    const window = filter.getWindowCase() === ReadReq.Options.FilterOptions.WindowCase.MAX ? filter.getMax() : DEFAULT_SEARCH_WINDOW;
    const interval = Math.max(1, filter.getCheckpointintervalmultiplier()) * window;
    const all = read.getAll()!;
    // from a position: strictly after the record at it (the server reads one record from there and starts at the next)
    const fromPosition = all.getAllOptionCase() === ReadReq.Options.AllOptions.AllOptionCase.POSITION;
    let next = Math.min(log.indexOf(all) + (fromPosition ? 1 : 0), log.records.length);
    let wake: () => void = () => undefined;
    const stop = () => wake();
    call.once('cancelled', stop);
    call.once('close', stop);
    wakeOnClose.add(stop);
    try {
      await follow();
    } finally {
      wakeOnClose.delete(stop);
    }

    async function follow(): Promise<void> {
      const confirmation = new ReadResp.SubscriptionConfirmation();
      confirmation.setSubscriptionId(randomUUID());
      const confirmed = new ReadResp();
      confirmed.setConfirmation(confirmation);
      if (!(await send(call, confirmed))) return;

      let considered = 0;
      let caughtUp = false;
      while (!closing) {
        while (next < log.records.length) {
          const record = log.records[next++];
          if (matches(record) && !(await send(call, eventResponse(record, true)))) return;
          if (++considered >= interval) {
            considered = 0;
            if (!(await send(call, checkpointResponse(record)))) return;
          }
        }
        if (!caughtUp) {
          caughtUp = true;
          const response = new ReadResp();
          response.setCaughtUp(new ReadResp.CaughtUp());
          if (!(await send(call, response))) return;
        }
        // nothing is appended between the check above and this wait: both run without yielding
        await new Promise<void>((resolve) => {
          wake = resolve;
          void log.nextAppend().then(resolve);
        });
        if (call.cancelled || call.destroyed) return;
      }
    }
  }

  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return {
    url: `esdb://127.0.0.1:${port}?tls=false`,
    calls: () => ({ ...calls }),
    writeSystemEvents,
    async close() {
      closing = true;
      for (const stop of wakeOnClose) stop();
      server.forceShutdown();
    },
  };
}

interface LogRecord {
  /** commit and prepare position alike: a byte offset in the transaction file */
  position: bigint;
  streamId: string;
  revision: bigint;
  id: string;
  type: string;
  isJson: boolean;
  data: Uint8Array;
  metadata: Uint8Array;
  /** .NET ticks (100 ns) since the Unix epoch, as the server sends `created` */
  created: string;
}

type NewRecord = Pick<LogRecord, 'id' | 'type' | 'isJson' | 'data' | 'metadata'>;
type Expected = { kind: 'any' | 'no_stream' | 'stream_exists' } | { kind: 'revision'; revision: bigint };

interface PendingAppend {
  stream: string;
  expected: Expected;
  messages: BatchAppendReq.ProposedMessage[];
}

/** the whole log in memory; every write is atomic (nothing else runs while it happens) */
class TransactionLog {
  readonly records: LogRecord[] = [];
  private readonly streams = new Map<string, LogRecord[]>();
  private readonly indexByPosition = new Map<bigint, number>();
  /** where the next record goes */
  private end = 0n;
  private appended = deferred();

  stream(streamId: string): LogRecord[] | undefined {
    return this.streams.get(streamId);
  }

  write(streamId: string, events: NewRecord[]): LogRecord[] {
    const stream = this.streams.get(streamId) ?? [];
    const written = events.map((event) => {
      const record: LogRecord = { ...event, streamId, revision: BigInt(stream.length), position: this.end, created: ticksNow() };
      this.end += RECORD_OVERHEAD + BigInt(Buffer.byteLength(streamId) + Buffer.byteLength(event.type) + event.data.length + event.metadata.length);
      this.indexByPosition.set(record.position, this.records.length);
      this.records.push(record);
      stream.push(record);
      return record;
    });
    this.streams.set(streamId, stream);
    const wake = this.appended;
    this.appended = deferred();
    wake.resolve();
    return written;
  }

  /** where an $all read or subscription starts: the log's start, its end, or the record at a position */
  indexOf(all: ReadReq.Options.AllOptions): number {
    if (all.hasStart()) return 0;
    if (all.hasEnd()) return this.records.length;
    const position = positionOf(all.getPosition()!);
    if (position === this.end) return this.records.length;
    const index = this.indexByPosition.get(position);
    if (index === undefined) throw invalidPosition();
    return index;
  }

  nextAppend(): Promise<void> {
    return this.appended.promise;
  }
}

/** every answer names the append it answers (correlation id) and its stream */
function answer(correlation: UUID | undefined, stream: string, response: BatchAppendResp): BatchAppendResp {
  response.setCorrelationId(correlation);
  response.setStreamIdentifier(identifier(stream));
  return response;
}

function appendTo(log: TransactionLog, append: PendingAppend): BatchAppendResp {
  if (append.messages.length === 0) return failure(Code.UNIMPLEMENTED, 'stand-in: empty appends are outside the protocol subset it speaks');
  const events: NewRecord[] = [];
  for (const message of append.messages) {
    const id = message.getId();
    const type = message.getMetadataMap().get('type');
    const contentType = message.getMetadataMap().get('content-type');
    if (!id?.hasString()) return failure(Code.UNIMPLEMENTED, 'stand-in: only string UUIDs are read');
    if (type === undefined || contentType === undefined) return badRequest('The given key was not present in the dictionary.');
    events.push({ id: id.getString(), type, isJson: contentType === 'application/json', data: message.getData_asU8(), metadata: message.getCustomMetadata_asU8() });
  }
  const stream = log.stream(append.stream);
  const current = stream ? stream[stream.length - 1].revision : undefined;
  const { expected } = append;
  const accepted =
    expected.kind === 'any' ||
    (expected.kind === 'no_stream' && current === undefined) ||
    (expected.kind === 'stream_exists' && current !== undefined) ||
    (expected.kind === 'revision' && current === expected.revision);
  if (!accepted) return wrongExpectedVersion(current, expected);

  const last = log.write(append.stream, events).pop()!;
  const position = new AllStreamPosition();
  position.setCommitPosition(String(last.position));
  position.setPreparePosition(String(last.position));
  const success = new BatchAppendResp.Success();
  success.setCurrentRevision(String(last.revision));
  success.setPosition(position);
  const response = new BatchAppendResp();
  response.setSuccess(success);
  return response;
}

/** Status.WrongExpectedVersion of the server: code AlreadyExists, details event_store.client.WrongExpectedVersion */
function wrongExpectedVersion(current: bigint | undefined, expected: Expected): BatchAppendResp {
  const details = new WrongExpectedVersion();
  if (current === undefined) details.setCurrentNoStream(new ProtobufEmpty());
  else details.setCurrentStreamRevision(String(current));
  if (expected.kind === 'revision') details.setExpectedStreamPosition(String(expected.revision));
  else if (expected.kind === 'any') details.setExpectedAny(new ProtobufEmpty());
  else if (expected.kind === 'stream_exists') details.setExpectedStreamExists(new ProtobufEmpty());
  else details.setExpectedNoStream(new ProtobufEmpty());
  return failure(Code.ALREADY_EXISTS, 'WrongExpectedVersion', details.serializeBinary(), 'event_store.client.WrongExpectedVersion');
}

function badRequest(message: string): BatchAppendResp {
  const details = new BadRequest();
  details.setMessage(message);
  return failure(Code.INVALID_ARGUMENT, 'BadRequest', details.serializeBinary(), 'event_store.client.BadRequest');
}

/** the client reads `details` of every error, so there always are some (the server packs an Empty when it has nothing to say) */
function failure(code: Code, message: string, details = new ProtobufEmpty().serializeBinary(), typeName = 'google.protobuf.Empty'): BatchAppendResp {
  const packed = new Any();
  packed.pack(details, typeName);
  const status = new Status();
  status.setCode(code);
  status.setMessage(message);
  status.setDetails(packed);
  const response = new BatchAppendResp();
  response.setError(status);
  return response;
}

function expectedOf(options: BatchAppendReq.Options): Expected {
  switch (options.getExpectedStreamPositionCase()) {
    case BatchAppendReq.Options.ExpectedStreamPositionCase.STREAM_POSITION:
      return { kind: 'revision', revision: BigInt(options.getStreamPosition()) };
    case BatchAppendReq.Options.ExpectedStreamPositionCase.NO_STREAM:
      return { kind: 'no_stream' };
    case BatchAppendReq.Options.ExpectedStreamPositionCase.STREAM_EXISTS:
      return { kind: 'stream_exists' };
    default:
      return { kind: 'any' };
  }
}

function eventResponse(record: LogRecord, fromAll: boolean): ReadResp {
  const id = new UUID();
  id.setString(record.id);
  const recorded = new ReadResp.ReadEvent.RecordedEvent();
  recorded.setId(id);
  recorded.setStreamIdentifier(identifier(record.streamId));
  recorded.setStreamRevision(String(record.revision));
  recorded.setCommitPosition(String(record.position));
  recorded.setPreparePosition(String(record.position));
  const metadata = recorded.getMetadataMap();
  metadata.set('type', record.type);
  metadata.set('created', record.created);
  metadata.set('content-type', record.isJson ? 'application/json' : 'application/octet-stream');
  recorded.setData(record.data);
  recorded.setCustomMetadata(record.metadata);
  const event = new ReadResp.ReadEvent();
  event.setEvent(recorded);
  // the read event carries the $all position only when the read is of $all
  if (fromAll) event.setCommitPosition(String(record.position));
  else event.setNoPosition(new Empty());
  const response = new ReadResp();
  response.setEvent(event);
  return response;
}

function checkpointResponse(record: LogRecord): ReadResp {
  const checkpoint = new ReadResp.Checkpoint();
  checkpoint.setCommitPosition(String(record.position));
  checkpoint.setPreparePosition(String(record.position));
  const response = new ReadResp();
  response.setCheckpoint(checkpoint);
  return response;
}

function filterOf(filter: ReadReq.Options.FilterOptions): (record: LogRecord) => boolean {
  const onStream = filter.getFilterCase() === ReadReq.Options.FilterOptions.FilterCase.STREAM_IDENTIFIER;
  const expression = onStream ? filter.getStreamIdentifier()! : filter.getEventType()!;
  const subject = (record: LogRecord) => (onStream ? record.streamId : record.type);
  // the server's regex is .NET's; the patterns the client builds mean the same in JavaScript
  if (expression.getRegex()) {
    const regex = new RegExp(expression.getRegex());
    return (record) => regex.test(subject(record));
  }
  const prefixes = expression.getPrefixList();
  return (record) => prefixes.some((prefix) => subject(record).startsWith(prefix));
}

/** positions this log hands out have commit = prepare; a pair that differs is no record boundary */
function positionOf(position: ReadReq.Options.Position): bigint {
  const commit = BigInt(position.getCommitPosition());
  if (BigInt(position.getPreparePosition()) !== commit) throw invalidPosition();
  return commit;
}

/** writes one message, waiting while the transport's buffer is full; false once the call is gone */
async function send(call: grpc.ServerWritableStream<ReadReq, ReadResp>, message: ReadResp): Promise<boolean> {
  if (call.cancelled || call.destroyed) return false;
  if (!call.write(message)) {
    await new Promise<void>((resolve) => {
      const done = () => {
        call.off('drain', done);
        call.off('close', done);
        resolve();
      };
      call.on('drain', done);
      call.on('close', done);
    });
  }
  return !call.cancelled && !call.destroyed;
}

function streamName(id: StreamIdentifier): string {
  return Buffer.from(id.getStreamName_asU8()).toString('utf8');
}

function identifier(name: string): StreamIdentifier {
  const id = new StreamIdentifier();
  id.setStreamName(Buffer.from(name, 'utf8'));
  return id;
}

/** a uint64 count as the client sends it; the client's "everything" is Number.MAX_SAFE_INTEGER */
function limit(count: string): number {
  return Math.min(Number(count), Number.MAX_SAFE_INTEGER);
}

function ticksNow(): string {
  const subMillisecond = (process.hrtime.bigint() % 1_000_000n) / 100n;
  return String(BigInt(Date.now()) * 10_000n + subMillisecond);
}

function json(value: unknown): Uint8Array {
  return Buffer.from(JSON.stringify(value), 'utf8');
}

function refused(what: string): Partial<grpc.StatusObject> {
  return { code: grpc.status.UNIMPLEMENTED, details: `EventStoreDB stand-in: ${what} is outside the protocol subset it speaks` };
}

function invalid(details: string): Partial<grpc.StatusObject> {
  return { code: grpc.status.INVALID_ARGUMENT, details };
}

/** RpcExceptions.InvalidPositionException of the server */
function invalidPosition(): Partial<grpc.StatusObject> {
  return invalid('Trying to read from an invalid position.');
}

function isStatus(error: unknown): error is Partial<grpc.StatusObject> {
  return typeof error === 'object' && error !== null && 'code' in error && 'details' in error;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
