"""Reporters: pure functions from results to a string, one module per output format."""

from __future__ import annotations

from enum import Enum


class OutputFormat(str, Enum):
    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"
