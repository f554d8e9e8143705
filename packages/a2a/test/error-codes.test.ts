/**
 * The pty-ws/v1 binding's `a2a_error` (protocol's ERROR_TABLE) must carry the code the A2A
 * JSON-RPC binding uses for the same error (binding §6: clients route on it identically to other
 * bindings), so the two tables may not drift apart.
 */
import { BINDING_ERROR_CODES, ERROR_TABLE } from '@pty-ws/protocol';
import { A2A_ERROR_SPECS, type A2aErrorName } from '../src/a2a-error';

describe('binding error table against the A2A error specs', () => {
  const shared = BINDING_ERROR_CODES.filter((c) => ERROR_TABLE[c].a2aType in A2A_ERROR_SPECS);

  it('covers every binding code that has an A2A counterpart', () => {
    expect(shared.sort()).toEqual(BINDING_ERROR_CODES.filter((c) => c !== 'REPLAY_OUT_OF_RANGE').sort());
  });

  it.each(shared)('%s has the JSON-RPC code and HTTP status of its A2A error', (code) => {
    const a2a = A2A_ERROR_SPECS[ERROR_TABLE[code].a2aType as A2aErrorName];
    expect([ERROR_TABLE[code].jsonRpcCode, ERROR_TABLE[code].httpStatus]).toEqual([a2a.jsonRpcCode, a2a.httpStatus]);
  });
});
