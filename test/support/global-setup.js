// Says once which backend the HTTP suites use, so a run's log shows what it tested.
module.exports = async () => {
  const backend = process.env.SVC_TEST_BACKEND === 'embedded' ? 'embedded PGlite' : `PostgreSQL at ${process.env.SVC_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres'}`;
  process.stdout.write(`\nTest backend: ${backend}\n`);
};
