/** What tests of a Bus adapter use: the contract every adapter passes. Not for production code. */
export { describeBusContract, waitFor, type BusUnderTest } from './bus.contract';
