"""Loads trace files the way reagent-flow 0.5 (Python) does, to prove ours stay readable.

reagent-flow 0.5 builds ToolCall, ToolResult and Message with ``Cls(**d)``: an extra key
raises TypeError. Trace, Turn and LLMCall are built from named keys, so extra keys there
are ignored. Times are floats (``time.time()``); this checker insists on that too.

Usage: python3 load_like_reagent_flow_05.py FILE...   (exit 0 when every file loads)
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Message:
    role: str
    content: Any


@dataclass
class ToolCall:
    name: str
    arguments: dict
    call_id: str
    timestamp: float


@dataclass
class ToolResult:
    call_id: str
    result: Any = None
    error: str | None = None
    duration_ms: float = 0


@dataclass
class LLMCall:
    messages: list[Message] | None
    response_text: str | None
    tool_calls: list[ToolCall]
    model: str | None = None
    token_usage: dict | None = None
    timestamp: float = 0.0


@dataclass
class Turn:
    index: int
    llm_call: LLMCall
    tool_results: list[ToolResult] = field(default_factory=list)
    duration_ms: float = 0


@dataclass
class Trace:
    trace_id: str
    name: str
    turns: list[Turn]
    metadata: dict
    started_at: float
    ended_at: float | None
    format_version: str
    parent_trace_id: str | None
    handoff_context: dict | None


def require_float(value: Any, where: str) -> None:
    if not isinstance(value, float):
        raise TypeError(f"{where} must be a float, got {type(value).__name__} {value!r}")


def trace_from_dict(d: dict) -> Trace:
    turns = []
    for t in d["turns"]:
        lc = t["llm_call"]
        messages = None if lc["messages"] is None else [Message(**m) for m in lc["messages"]]
        tool_calls = [ToolCall(**tc) for tc in lc["tool_calls"]]
        for i, tc in enumerate(tool_calls):
            require_float(tc.timestamp, f"turns[{t['index']}].llm_call.tool_calls[{i}].timestamp")
        require_float(lc["timestamp"], f"turns[{t['index']}].llm_call.timestamp")
        llm_call = LLMCall(
            messages=messages,
            response_text=lc["response_text"],
            tool_calls=tool_calls,
            model=lc.get("model"),
            token_usage=lc.get("token_usage"),
            timestamp=lc["timestamp"],
        )
        results = [ToolResult(**tr) for tr in t["tool_results"]]
        turns.append(Turn(index=t["index"], llm_call=llm_call, tool_results=results, duration_ms=t["duration_ms"]))
    require_float(d["started_at"], "started_at")
    if d["ended_at"] is not None:
        require_float(d["ended_at"], "ended_at")
    return Trace(
        trace_id=d["trace_id"],
        name=d["name"],
        turns=turns,
        metadata=d.get("metadata") or {},
        started_at=d["started_at"],
        ended_at=d.get("ended_at"),
        format_version=d.get("format_version", "1"),
        parent_trace_id=d.get("parent_trace_id"),
        handoff_context=d.get("handoff_context"),
    )


# The top-level keys Trace is built from; any other (ours: status, error, conversation, ...) is skipped.
TRACE_KEYS = {"trace_id", "name", "turns", "metadata", "started_at", "ended_at", "format_version", "parent_trace_id", "handoff_context"}


def main(paths: list[str]) -> int:
    failed = 0
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                d = json.load(f)
            trace = trace_from_dict(d)
            skipped = sorted(key for key in d if key not in TRACE_KEYS)
            print(f"ok {path} ({len(trace.turns)} turns; skipped: {', '.join(skipped) or 'nothing'})")
        except Exception as e:  # noqa: BLE001 - report every failure, keep going
            failed += 1
            print(f"FAIL {path}: {type(e).__name__}: {e}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
