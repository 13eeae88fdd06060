import { DatabaseError } from 'pg';
import { StatusError } from '../errors';
import { databaseUnavailable } from './storage-errors';

/** An error as PostgreSQL sends it (pg's DatabaseError), with its SQLSTATE. */
function sqlError(code: string, message: string): DatabaseError {
  const err = new DatabaseError(message, message.length, 'error');
  err.code = code;
  return err;
}

/** A Node socket error, as `net` reports it. */
function socketError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, syscall: 'connect' });
}

test.each([
  ['the server shut down (pg_ctl stop -m fast, pg_terminate_backend)', sqlError('57P01', 'terminating connection due to administrator command')],
  ['the server crashed', sqlError('57P02', 'terminating connection because of crash of another server process')],
  ['the server is starting, stopping or recovering', sqlError('57P03', 'the database system is starting up')],
  ['the database was dropped under the connection', sqlError('57P04', 'terminating connection because database was dropped')],
  ['the database does not exist (dropped, or not yet restored)', sqlError('3D000', 'database "svc" does not exist')],
  ['too many connections', sqlError('53300', 'sorry, too many clients already')],
  ['a connection exception (class 08)', sqlError('08006', 'connection failure')],
  ['another connection exception (class 08)', sqlError('08001', 'could not connect to server')],
  ['a protocol violation (class 08)', sqlError('08P01', 'unexpected message')],
  ['refused', socketError('ECONNREFUSED')],
  ['reset', socketError('ECONNRESET')],
  ['timed out', socketError('ETIMEDOUT')],
  ['a broken pipe', socketError('EPIPE')],
  ['an unknown host', socketError('ENOTFOUND')],
  ['an unreachable host', socketError('EHOSTUNREACH')],
  ['the socket closed under a query', new Error('Connection terminated unexpectedly')],
  ['the socket closed while connecting', new Error('Connection terminated due to connection timeout')],
  ['a client that lost its connection earlier', new Error('Client has encountered a connection error and is not queryable')],
  ['the pool waited too long for a connection', new Error('timeout exceeded when trying to connect')],
  ['the pool is closed (shutdown)', new Error('Cannot use a pool after calling end on the pool')],
  ['the driver is closed (shutdown)', new Error('driver has already been destroyed')],
])('%s is 503: the database, not the request, is at fault', (_, err) => {
  const status = databaseUnavailable(err);
  expect(status).toBeInstanceOf(StatusError);
  expect(status).toMatchObject({ code: 503, reason: 'ServiceUnavailable', message: 'the database is unavailable, try again later' });
});

test.each([
  ['a unique violation', sqlError('23505', 'duplicate key value violates unique constraint')],
  ['an undefined table (a database restored without its schema)', sqlError('42P01', 'relation "resource" does not exist')],
  ['a serialization failure', sqlError('40001', 'could not serialize access')],
  ['a value PostgreSQL refuses', sqlError('22P05', 'unsupported Unicode escape sequence')],
  ['a query cancelled by statement_timeout', sqlError('57014', 'canceling statement due to statement timeout')],
  ['a programming error', new TypeError("Cannot read properties of undefined (reading 'x')")],
  ['not an error at all', 'boom'],
  ['nothing', undefined],
])('%s is not a database outage', (_, err) => {
  expect(databaseUnavailable(err)).toBeUndefined();
});
