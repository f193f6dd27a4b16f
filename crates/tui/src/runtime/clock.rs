//! The loop's clock: the time a batch of messages is handled at, and the
//! spinner's beat while something loads. The real one reads the system
//! clock and beats with a timer; the virtual one stands still until a test
//! moves it, so time-dependent behaviour is tested without waiting.

use findings_model::Timestamp;
use std::time::Duration;

/// The spinner's beat while something loads.
pub const BEAT: Duration = Duration::from_millis(100);

pub enum Clock {
    /// The system clock shifted by an offset: zero, or how far
    /// `FINDINGS_NOW` (the demo's `--days-later`) puts the data ahead.
    System(tokio::time::Interval, chrono::TimeDelta),
    Virtual(VirtualClock),
}

/// Time that moves only when told, beating every [`BEAT`] it passes.
pub struct VirtualClock {
    now: Timestamp,
    next_beat: Timestamp,
}

impl Clock {
    /// The system clock moved by `offset` (needs a Tokio runtime: its beat
    /// is a timer): ages and periods count to the data's day while time
    /// still passes as it does.
    pub fn system(offset: chrono::TimeDelta) -> Clock {
        let mut beat = tokio::time::interval(BEAT);
        beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        Clock::System(beat, offset)
    }

    /// A virtual clock standing at `start`.
    pub fn starting_at(start: Timestamp) -> Clock {
        Clock::Virtual(VirtualClock {
            now: start,
            next_beat: start + BEAT,
        })
    }

    pub fn now(&self) -> Timestamp {
        match self {
            Clock::System(_, offset) => chrono::Utc::now() + *offset,
            Clock::Virtual(v) => v.now,
        }
    }

    /// Resolves at the next beat; a virtual clock's beats come only from
    /// [`Clock::advance`], so here it never resolves.
    pub async fn beat(&mut self) {
        match self {
            Clock::System(beat, _) => {
                beat.tick().await;
            }
            Clock::Virtual(_) => std::future::pending().await,
        }
    }

    /// Moves a virtual clock toward `end`: to its next beat if that comes
    /// first (and says so), else to `end`. A test moves time with this,
    /// one beat at a time; the system clock cannot be moved.
    pub fn to_next_beat_before(&mut self, end: Timestamp) -> bool {
        let Clock::Virtual(v) = self else {
            panic!("only a virtual clock is moved by hand");
        };
        if v.next_beat <= end {
            v.now = v.next_beat;
            v.next_beat += BEAT;
            true
        } else {
            v.now = end;
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> Timestamp {
        chrono::DateTime::parse_from_rfc3339("2026-11-01T00:00:00Z")
            .unwrap()
            .to_utc()
    }

    #[test]
    fn a_virtual_clock_beats_at_each_beat_it_passes_and_stops_where_told() {
        let mut clock = Clock::starting_at(start());
        let ms = chrono::Duration::milliseconds;
        let beats = |clock: &mut Clock, end| {
            let mut at = Vec::new();
            while clock.to_next_beat_before(start() + end) {
                at.push(clock.now() - start());
            }
            assert_eq!(clock.now(), start() + end);
            at
        };
        assert_eq!(beats(&mut clock, ms(250)), vec![ms(100), ms(200)]);
        // The next beat is 100 ms after the last, not after the stop.
        assert_eq!(beats(&mut clock, ms(300)), vec![ms(300)]);
        assert_eq!(beats(&mut clock, ms(350)), vec![]);
    }
}
