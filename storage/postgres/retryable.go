package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// noted is a transaction that remembers the first error that aborts it for
// a reason a new attempt can fix (a serialization failure, a deadlock, a
// lost connection). chat's code may log and step over an error from one
// statement (a player's name not saved is not worth failing a move for),
// but PostgreSQL has then aborted the whole transaction: every later
// statement fails with "current transaction is aborted". Update looks at
// the noted error after the function returns and runs the transaction
// again instead of reporting the later, meaningless failure.
type noted struct {
	pgx.Tx
	ctx    context.Context
	failed error
}

func (n *noted) note(err error) {
	if err != nil && n.failed == nil && (retryable(err) || connectionTrouble(n.ctx, err)) {
		n.failed = err
	}
}

func (n *noted) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	tag, err := n.Tx.Exec(ctx, sql, args...)
	n.note(err)
	return tag, err
}

func (n *noted) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	rows, err := n.Tx.Query(ctx, sql, args...)
	n.note(err)
	if err != nil {
		return rows, err
	}
	return notedRows{rows, n}, nil
}

func (n *noted) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return notedRow{n.Tx.QueryRow(ctx, sql, args...), n}
}

type notedRow struct {
	pgx.Row
	n *noted
}

func (r notedRow) Scan(dest ...any) error {
	err := r.Row.Scan(dest...)
	r.n.note(err)
	return err
}

type notedRows struct {
	pgx.Rows
	n *noted
}

func (r notedRows) Scan(dest ...any) error {
	err := r.Rows.Scan(dest...)
	r.n.note(err)
	return err
}

func (r notedRows) Err() error {
	err := r.Rows.Err()
	r.n.note(err)
	return err
}
