"""Minimum s-t cut by max flow, shared by barrier elimination (cache vs recompute across barriers) and reverse-mode
AD (cache vs recompute for the reverse pass, Enzyme's cache reduction)."""

from __future__ import annotations

from collections import deque


def min_cut_source_side(cap: dict, s, t) -> set:
    """Edmonds-Karp max flow on residual capacities `cap` ({node: {node: capacity}}, every edge present in both
    directions; modified in place); returns the nodes reachable from `s` in the final residual graph (the
    source side of a minimum cut)."""
    while True:
        parent = {s: None}
        queue = deque([s])
        while queue and t not in parent:
            a = queue.popleft()
            for b, c in cap.get(a, {}).items():
                if c > 0 and b not in parent:
                    parent[b] = a
                    queue.append(b)
        if t not in parent:
            return set(parent)
        path, b = [], t
        while parent[b] is not None:
            path.append((parent[b], b))
            b = parent[b]
        f = min(cap[a][b] for a, b in path)  # callers keep capacities on every s-t path finite
        for a, b in path:
            cap[a][b] -= f
            cap[b][a] += f
