//! What the command line and the Python package say of a `nodetool ring` beyond the scenario it becomes
//! (`engine::cassandra_ring` reads it): which nodes are down here and why, and what the
//! scenario leaves out (a `Leaving` node's departure, a `Moving` node's move, datacenter
//! boundaries). Notes in English, printed on stderr.

use crate::engine::cassandra_ring::ClusterTokens;
use crate::engine::note::Note;

/// One note per node whose state the scenario models in its own way, and one for several
/// datacenters.
pub fn notes(cluster: &ClusterTokens) -> Vec<Note> {
    let mut notes = Vec::new();
    for node in &cluster.nodes {
        let name = node.name;
        match (node.status, node.state) {
            (_, "Joining") => notes.push(format!("{name} until it has joined (Joining: down here; --step recover:{name} shows what it takes over)")),
            ("Down", _) => notes.push(format!("{name}'s ranges while it is Down (down here: its keys show on the next node clockwise, the next replica)")),
            (_, "Leaving") => notes.push(format!("nothing yet of {name}, which is Leaving (it owns its ranges until it has left; --step remove:{name} shows where they go)")),
            (_, "Moving") => notes.push(format!("the move of {name} (Moving: its current tokens are used)")),
            _ => {}
        }
    }
    if cluster.datacenters > 1 {
        notes.push(format!("datacenter boundaries: {} datacenters are one ring here (a key's primary replica is the first token at or above its own, across all of them)", cluster.datacenters));
    }
    notes.into_iter().map(Note::Said).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cassandra_ring::{read, test_row as row, TEST_HEAD as head};

    #[test]
    fn each_state_the_scenario_models_its_own_way_is_noted() {
        let text = format!(
            "{head}{}{}{}{}Datacenter: dc2\n{}",
            row("a", "Up", "Normal", "-5"),
            row("b", "Down", "Normal", "3"),
            row("c", "Up", "Leaving", "9"),
            row("d", "Up", "Joining", "12"),
            row("e", "Up", "Moving", "20"),
        );
        let cluster = read(&text).unwrap();
        let notes: Vec<String> = notes(&cluster).iter().map(ToString::to_string).collect();
        assert_eq!(notes.len(), 5, "{notes:?}");
        assert!(notes[0].contains("b's ranges while it is Down"));
        assert!(notes[1].contains("--step remove:c"));
        assert!(notes[2].contains("--step recover:d"));
        assert!(notes[3].starts_with("the move of e"));
        assert!(notes[4].contains("2 datacenters are one ring"));
    }
}
