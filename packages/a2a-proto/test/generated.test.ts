/** The committed generated code is what the generator produces now: regenerate and compare. */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const pkg = path.resolve(__dirname, '..');
const committed = path.join(pkg, 'src/generated');

function listFiles(dir: string, prefix = ''): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
    )
    .sort();
}

describe('generated proto types', () => {
  let fresh = '';
  beforeAll(() => {
    fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'a2a-proto-gen-'));
    execFileSync(process.execPath, [path.join(pkg, 'scripts/generate.cjs'), fresh], { stdio: 'pipe' });
  }, 60_000);
  afterAll(() => fs.rmSync(fresh, { recursive: true, force: true }));

  it('regenerating gives byte-identical files (run `npm run generate -w @pty-ws/a2a-proto` after editing proto/)', () => {
    const files = listFiles(fresh);
    expect(listFiles(committed)).toEqual(files);
    for (const f of files) {
      expect({ file: f, text: fs.readFileSync(path.join(committed, f), 'utf8') }).toEqual({
        file: f,
        text: fs.readFileSync(path.join(fresh, f), 'utf8'),
      });
    }
  });

  it('names the sources by repository-relative path, never the checkout location', () => {
    const headers = listFiles(fresh).map((f) => fs.readFileSync(path.join(fresh, f), 'utf8').split('\n', 1)[0]!);
    expect(headers.some((h) => h.includes('proto/lf/a2a/v1/a2a.proto'))).toBe(true);
    expect(headers.filter((h) => h.includes(path.resolve(pkg, '../..')))).toEqual([]);
  });
});
