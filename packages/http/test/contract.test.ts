/** The HTTP contract suite over in-memory storage. */
import { InMemoryAuditLog, InMemoryStorageLive } from "@ridequote/core/testing"
import { Layer } from "effect"
import { contractSuite } from "./contract-suite.js"

contractSuite("in-memory storage", () => Layer.mergeAll(InMemoryStorageLive, InMemoryAuditLog))
