import { MissingDependenciesError } from './deps';
import { PGBOUNCER_BINARY, requirePgbouncer } from './pgbouncer';

describe('the pgbouncer the tests and benchmarks start', () => {
  it('says what is missing and how to install it when the binary is absent', () => {
    const missing = '/nonexistent/sbin/pgbouncer';
    expect(() => requirePgbouncer(missing)).toThrow(MissingDependenciesError);
    expect(() => requirePgbouncer(missing)).toThrow(
      /CAIRN_TEST_PGBOUNCER=1.*needs \/nonexistent\/sbin\/pgbouncer, which is missing.*scripts\/install-deps\.sh.*apt-get install -y pgbouncer/,
    );
  });

  it("finds Debian's package where install-deps.sh puts it", () => {
    expect(requirePgbouncer()).toBe(PGBOUNCER_BINARY);
  });
});
