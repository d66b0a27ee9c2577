"""The one error of the knowledge base: a data file that breaks the schema or refers to something unknown."""

from __future__ import annotations


class KnowledgeError(Exception):
    """A knowledge data file is wrong. The message names the file, the entry and the field.

    ``file``, ``entry`` and ``field`` are kept as attributes so that tests and tools can check them.
    """

    def __init__(self, file: str, entry: str | None, field: str | None, problem: str):
        self.file = file
        self.entry = entry
        self.field = field
        self.problem = problem
        where = file
        if entry is not None:
            where += f", entry {entry}"
        if field is not None:
            where += f", field {field}"
        super().__init__(f"{where}: {problem}")

    def __reduce__(self):  # type: ignore[override]  # picklable across worker processes
        return (type(self), (self.file, self.entry, self.field, self.problem))
