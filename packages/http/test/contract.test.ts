/**
 * The HTTP contract suite over in-memory storage, on both hosts: the Node listener that
 * `ridequote serve` runs, and HttpHostLive as a custom host composes it.
 */
import { InMemoryAuditLog, InMemoryStorageLive } from "@ridequote/core/testing"
import { Layer } from "effect"
import { contractSuite } from "./contract-suite.js"

contractSuite("in-memory storage", () => Layer.mergeAll(InMemoryStorageLive, InMemoryAuditLog), "node")
contractSuite("in-memory storage", () => Layer.mergeAll(InMemoryStorageLive, InMemoryAuditLog), "httpapi")
