//! Recording a hand as it is played: the one way hands dealt and played in memory (random
//! hands, bot matches, a person's session) become hand histories.

use super::{ActionLine, HandHistory, PhhAction, Shown};
use crate::cards::Card;
use crate::rules::{Action, GameDef, State};

/// Builds the hand history of a hand while it is played: each street's cards as one hole-card
/// action per seat (as PokerKit writes), community cards as `d db`, every betting action, and
/// at a showdown every live seat shows its cards.
#[derive(Clone, Debug)]
pub struct Recorder {
    history: HandHistory,
    /// Cards dealt since the last betting action, per seat, not yet written.
    hole: Vec<Vec<Card>>,
    board: Vec<Card>,
    /// Every card of each seat, for the showdown.
    hands: Vec<Vec<Card>>,
}

impl Recorder {
    /// A recorder for a hand of `def`, or `None` when PHH cannot record the game (Kuhn, Leduc,
    /// ministud).
    pub fn new(def: &GameDef) -> Option<Recorder> {
        let seats = def.seats as usize;
        Some(Recorder {
            history: HandHistory::for_game(def)?,
            hole: vec![Vec::new(); seats],
            board: Vec::new(),
            hands: vec![Vec::new(); seats],
        })
    }

    /// Records a card dealt to `seat` (`None`: a community card).
    pub fn deal(&mut self, seat: Option<u8>, card: Card) {
        match seat {
            Some(s) => {
                self.hole[s as usize].push(card);
                self.hands[s as usize].push(card);
            }
            None => self.board.push(card),
        }
    }

    /// Records a betting action of `seat`.
    pub fn act(&mut self, seat: u8, action: Action) {
        self.flush();
        self.history
            .actions
            .push(ActionLine::new(PhhAction::Bet { seat, action }));
    }

    fn flush(&mut self) {
        for (seat, cards) in self.hole.iter_mut().enumerate() {
            if !cards.is_empty() {
                self.history
                    .actions
                    .push(ActionLine::new(PhhAction::DealHole {
                        seat: seat as u8,
                        cards: cards.drain(..).map(Some).collect(),
                    }));
            }
        }
        if !self.board.is_empty() {
            self.history
                .actions
                .push(ActionLine::new(PhhAction::DealBoard(
                    self.board.drain(..).map(Some).collect(),
                )));
        }
    }

    /// The finished history of the hand that ended in `state`: the cards dealt since the last
    /// action, then the live seats' shows when more than one is left.
    pub fn finish(mut self, state: &State) -> HandHistory {
        self.flush();
        let live: Vec<u8> = (0..state.def().seats)
            .filter(|&s| !state.folded(s))
            .collect();
        if live.len() > 1 {
            for s in live {
                self.history
                    .actions
                    .push(ActionLine::new(PhhAction::ShowMuck {
                        seat: s,
                        shown: Shown::Cards(
                            self.hands[s as usize].iter().copied().map(Some).collect(),
                        ),
                    }));
            }
        }
        self.history
    }
}
