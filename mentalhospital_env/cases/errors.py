"""Errors raised when a case or a suite breaks the case file contract (docs/cases.md)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One broken rule: the field path (``ehr.mental_status_exam.mood``, ``exams[2].kind``) and what is wrong."""

    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message


class CaseError(ValueError):
    """A case breaks the contract.

    ``case_id`` names the case (or where it stands in its file when it has no usable id),
    ``field`` the path of the first offending field and ``problem`` what is wrong with it;
    ``problems`` lists every broken rule found in the case.
    """

    def __init__(self, case_id: str, problems: list[Problem] | Problem | str, field: str = ""):
        if isinstance(problems, str):
            problems = [Problem(field, problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        if not problems:
            raise ValueError("CaseError needs at least one problem")
        self.case_id = case_id
        self.problems: tuple[Problem, ...] = tuple(problems)
        self.field = self.problems[0].field
        self.problem = self.problems[0].message
        lines = [f"case {case_id!r}: {p}" for p in self.problems]
        super().__init__(lines[0] if len(lines) == 1 else "\n".join([f"case {case_id!r} has {len(lines)} problems:"] + ["  " + x for x in lines]))

    def __reduce__(self):  # picklable across worker processes
        return (type(self), (self.case_id, list(self.problems)))


class SuiteError(CaseError):
    """A suite has bad cases; nothing of it is loaded. ``errors`` holds one ``CaseError`` per bad case."""

    def __init__(self, source: str, errors: list[CaseError]):
        if not errors:
            raise ValueError("SuiteError needs at least one case error")
        self.source = source
        self.errors: tuple[CaseError, ...] = tuple(errors)
        first = self.errors[0]
        ValueError.__init__(
            self,
            f"{source}: {len(self.errors)} bad case(s), nothing loaded:\n" + "\n".join(str(e) for e in self.errors),
        )
        self.case_id = first.case_id
        self.problems = first.problems
        self.field = first.field
        self.problem = first.problem

    @property
    def bad_case_ids(self) -> tuple[str, ...]:
        return tuple(e.case_id for e in self.errors)

    def __reduce__(self):
        return (type(self), (self.source, list(self.errors)))
