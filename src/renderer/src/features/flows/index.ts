export { buildFlowGraph, nodeName, type FlowEdge, type FlowGraph, type FlowNode } from './flow-graph'
export { limitFlows, parseMinAmount, FlowFilterError, type FlowDirection, type FlowLimits } from './flow-limit'
export { collapseHubs, HUB_THRESHOLD } from './flow-hubs'
export { findPath } from './flow-path'
