/**
 * The flow graph of an address: its model (graph, limits, hubs, paths) and the panel.
 * Other features and pages import this feature only through this file.
 */
export { buildFlowGraph, nodeName, type FlowEdge, type FlowGraph, type FlowNode } from './flow-graph'
export { limitFlows, parseMinAmount, FlowFilterError, type FlowDirection, type FlowLimits } from './flow-limit'
export { collapseHubs, HUB_THRESHOLD } from './flow-hubs'
export { findPath } from './flow-path'
export { default as FlowsPanel } from './FlowsPanel.vue'
export { useFlowsStore } from './flows-store'
export { nodeData } from './graph-elements'
