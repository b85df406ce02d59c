package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/storage"
)

// A running gobot holds the database's lock, so another process cannot
// open the file. It therefore also listens on a unix socket next to the
// database (FILE.sock, owner-only); `gobot backup` connects there and
// receives a consistent copy (bbolt's Tx.WriteTo). When no bot runs,
// backup opens the file itself, read-only.

func backupSocket(dbPath string) string { return dbPath + ".sock" }

// cmdBackup writes a consistent copy of the database.
func cmdBackup(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gobot backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "file to write the backup to (required)")
	dbPath := fs.String("db", "", "database file (default: the config's, else "+defaultDBPath()+")")
	cfgPath := fs.String("config", "", "config file naming the database")
	force := fs.Bool("force", false, "replace FILE if it exists")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if *out == "" || fs.NArg() > 0 {
		return fmt.Errorf("%w: write gobot backup -o FILE [-force] [-db PATH | -config FILE]", errUsage)
	}
	path, err := boltFile(*dbPath, *cfgPath, "backup")
	if err != nil {
		return err
	}
	if fo, err := os.Stat(*out); err == nil {
		if fd, err := os.Stat(path); err == nil && os.SameFile(fo, fd) {
			return fmt.Errorf("%s is the database itself; write the backup to another file", *out)
		}
		if !*force {
			return fmt.Errorf("%s already exists; nothing was written. Name another file, or add -force to replace it", *out)
		}
	}
	tmp := *out + ".partial"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	n, err := writeBackup(path, f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("backup of %s: %w", path, err)
	}
	if err := place(tmp, *out, *force); err != nil {
		os.Remove(tmp)
		return err
	}
	// Check the copy opens and is consistent before saying it is good.
	db, err := storage.Open(*out, storage.Options{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("the backup %s does not open: %w", *out, err)
	}
	defer db.Close()
	if err := db.Check(); err != nil {
		return fmt.Errorf("the backup %s is inconsistent: %w", *out, err)
	}
	fmt.Fprintf(stdout, "wrote %d bytes to %s (a consistent copy of %s)\n", n, *out, path)
	return nil
}

// place moves the finished copy tmp to out: over an existing file only
// with force, else by a hard link, which fails if out appeared meanwhile.
func place(tmp, out string, force bool) error {
	if !force {
		err := os.Link(tmp, out)
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s already exists; nothing was written. Name another file, or add -force to replace it", out)
		}
		if err == nil {
			return os.Remove(tmp)
		}
		// A file system without hard links: rename, having checked above.
	}
	return os.Rename(tmp, out)
}

// writeBackup copies the database at path to w: directly when no gobot
// holds it, else through the running bot's backup socket.
func writeBackup(path string, w io.Writer) (int64, error) {
	db, err := storage.Open(path, storage.Options{ReadOnly: true, Timeout: 300 * time.Millisecond})
	if err == nil {
		defer db.Close()
		return db.Backup(w)
	}
	if !errors.Is(err, gobot.ErrInUse) {
		return 0, err
	}
	conn, derr := net.Dial("unix", backupSocket(path))
	if derr != nil {
		return 0, fmt.Errorf("%w, and its backup socket does not answer: %v", err, derr)
	}
	defer conn.Close()
	return io.Copy(w, conn)
}

// serveBackups answers backup requests on the socket next to the
// database until ctx ends.
func serveBackups(ctx context.Context, db *storage.DB, log *slog.Logger) {
	sock := backupSocket(db.Path())
	// The socket hands out the whole database, so it is made owner-only
	// under a temporary name and only then put in place.
	tmp := sock + ".new"
	os.Remove(tmp)
	ln, err := net.Listen("unix", tmp)
	if err == nil {
		if err = os.Chmod(tmp, 0o600); err == nil {
			// Replaces a stale socket from a crashed run; we hold the db lock.
			err = os.Rename(tmp, sock)
		}
		if err != nil {
			ln.Close()
		}
	}
	if err != nil {
		os.Remove(tmp)
		log.Warn("backup socket unavailable; stop the bot to back up", "path", sock, "err", err)
		return
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	go func() {
		<-ctx.Done()
		ln.Close()
		os.Remove(sock)
	}()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				n, err := db.Backup(conn)
				if err != nil {
					log.Error("backup failed", "err", err)
					return
				}
				log.Info("backup written", "bytes", n, "dir", filepath.Dir(db.Path()))
			}()
		}
	}()
}
