//! Integer max flow (Dinic's algorithm) on small dense networks.

use std::collections::VecDeque;

#[derive(Clone, Debug)]
struct Edge {
    to: usize,
    capacity: usize,
}

/// A flow network; edges come in pairs (forward at even index, residual twin at odd).
#[derive(Clone, Debug)]
pub struct FlowNetwork {
    edges: Vec<Edge>,
    adjacency: Vec<Vec<usize>>,
}

impl FlowNetwork {
    pub fn new(num_nodes: usize) -> Self {
        FlowNetwork {
            edges: Vec::new(),
            adjacency: vec![Vec::new(); num_nodes],
        }
    }

    /// Adds an edge and returns its id, for reading its flow later.
    pub fn add_edge(&mut self, from: usize, to: usize, capacity: usize) -> usize {
        let id = self.edges.len();
        self.edges.push(Edge { to, capacity });
        self.edges.push(Edge {
            to: from,
            capacity: 0,
        });
        self.adjacency[from].push(id);
        self.adjacency[to].push(id + 1);
        id
    }

    /// Flow through edge `id` (the capacity its residual twin has gained).
    pub fn flow(&self, id: usize) -> usize {
        self.edges[id + 1].capacity
    }

    /// Pushes a maximum flow from `source` to `sink`; returns its value.
    pub fn max_flow(&mut self, source: usize, sink: usize) -> usize {
        let mut total = 0;
        loop {
            let level = self.levels(source);
            if level[sink] == usize::MAX {
                return total;
            }
            let mut next_edge = vec![0usize; self.adjacency.len()];
            loop {
                let pushed = self.augment(source, sink, usize::MAX, &level, &mut next_edge);
                if pushed == 0 {
                    break;
                }
                total += pushed;
            }
        }
    }

    /// Nodes reachable from `source` in the residual network (the source side of a minimum cut
    /// once the flow is maximum).
    pub fn residual_reachable(&self, source: usize) -> Vec<bool> {
        self.levels(source)
            .iter()
            .map(|&l| l != usize::MAX)
            .collect()
    }

    fn levels(&self, source: usize) -> Vec<usize> {
        let mut level = vec![usize::MAX; self.adjacency.len()];
        level[source] = 0;
        let mut queue = VecDeque::from([source]);
        while let Some(u) = queue.pop_front() {
            for &e in &self.adjacency[u] {
                let edge = &self.edges[e];
                if edge.capacity > 0 && level[edge.to] == usize::MAX {
                    level[edge.to] = level[u] + 1;
                    queue.push_back(edge.to);
                }
            }
        }
        level
    }

    fn augment(
        &mut self,
        u: usize,
        sink: usize,
        limit: usize,
        level: &[usize],
        next_edge: &mut [usize],
    ) -> usize {
        if u == sink {
            return limit;
        }
        while next_edge[u] < self.adjacency[u].len() {
            let e = self.adjacency[u][next_edge[u]];
            let (to, capacity) = (self.edges[e].to, self.edges[e].capacity);
            if capacity > 0 && level[to] == level[u] + 1 {
                let pushed = self.augment(to, sink, limit.min(capacity), level, next_edge);
                if pushed > 0 {
                    self.edges[e].capacity -= pushed;
                    self.edges[e ^ 1].capacity += pushed;
                    return pushed;
                }
            }
            next_edge[u] += 1;
        }
        0
    }
}
