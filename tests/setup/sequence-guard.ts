/**
 * Jest set-up for every test file (jest.config.js `setupFilesAfterEnv`): a test fails when any
 * TestClient it opened received a frame whose `sequence` is below one that connection had
 * already received (docs/spec/README.md interpretation 1: `sequence` never decreases on a connection).
 */
import { takeSequenceRegressions } from '@pty-ws/testkit';

afterEach(() => {
  const found = takeSequenceRegressions();
  if (found.length > 0) throw new Error(`${found.length} sequence regression(s):\n${found.join('\n')}`);
});
