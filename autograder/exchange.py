"""``nbgrader collect`` that never follows a student's link: ``c.ExchangeFactory.collect`` for the hub.

nbgrader's own collect copies each submission with ``shutil.copytree``, which follows symbolic links
with the instructor's read rights: a link a student leaves in the (world-writable) inbound folder, to the
instructor's source notebook or a classmate's submission, arrives in ``submitted/`` as a regular file.
This collector copies only regular files and folders; every link, FIFO, socket or device is left out and
named in the log. (``autograder grade`` refuses links on its own, and a notebook holding the source's
solution or hidden-test cells, for collections made any other way.)
"""

from __future__ import annotations

import os
import shutil
import stat

from nbgrader.exchange.default.collect import ExchangeCollect
from nbgrader.utils import ignore_patterns


def special_entries(folder: str, names: list[str]) -> set[str]:
    """The names in ``folder`` that are not regular files or folders (links included), never followed."""
    found = set()
    for name in names:
        try:
            mode = os.lstat(os.path.join(folder, name)).st_mode
        except OSError:
            found.add(name)
            continue
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            found.add(name)
    return found


class SafeCollect(ExchangeCollect):
    """nbgrader's collect, copying regular files and folders only."""

    def do_copy(self, src: str, dest: str, log=None) -> None:
        if self.get_size(src) > 1000 * self.coursedir.max_dir_size:
            self.log.error("Directory size is too big")
            raise RuntimeError(f"Directory size is too big: {src}")
        if os.path.islink(src):
            self.log.error("Refused a submission folder that is a symbolic link: %s", src)
            return
        nbgraders = ignore_patterns(
            exclude=self.coursedir.ignore,
            include=self.coursedir.include,
            max_file_size=self.coursedir.max_file_size,
            log=self.log,
        )

        def ignore(folder: str, names: list[str]) -> set[str]:
            special = special_entries(folder, names)
            for name in sorted(special):
                self.log.error("Not collected (a link or special file, never followed): %s", os.path.join(folder, name))
            return special | set(nbgraders(folder, [n for n in names if n not in special]))

        shutil.copytree(src, dest, symlinks=True, ignore=ignore)
