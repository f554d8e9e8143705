import { SERVICE_NODE_FLAGS, missingServiceNodeFlags, nodeFlagsWarning } from '../src';

describe('missingServiceNodeFlags', () => {
  it('lists every option when none is given', () => {
    expect(missingServiceNodeFlags([])).toEqual([...SERVICE_NODE_FLAGS]);
    expect(missingServiceNodeFlags(['--max-old-space-size=512'])).toEqual([...SERVICE_NODE_FLAGS]);
  });

  it('counts an option as given whatever its value or spelling (- or _)', () => {
    expect(missingServiceNodeFlags([...SERVICE_NODE_FLAGS])).toEqual([]);
    expect(missingServiceNodeFlags(['--initial-old-space-size=256'])).toEqual([]);
    expect(missingServiceNodeFlags(['--initial_old_space_size=64'])).toEqual([]);
  });
});

describe('nodeFlagsWarning', () => {
  it('is undefined with the options, and names them without', () => {
    expect(nodeFlagsWarning([...SERVICE_NODE_FLAGS])).toBeUndefined();
    const w = nodeFlagsWarning([]);
    expect(w?.fields).toEqual({ missing_node_options: [...SERVICE_NODE_FLAGS] });
    expect(w?.message).toContain('--initial-old-space-size=64');
  });
});
