//! GTP's vertices, colours and moves (read and written by [`gtp_wire`]) as the engine's
//! [`Point`], [`Color`] and [`Move`]. GTP counts Go's rows from the BOTTOM (`A1` is the
//! lower left corner) and [`Point`] counts them from the top, so the conversion needs the
//! board size.

use gtp_wire::{GtpError, Vertex};

use crate::point::{Color, Move, Point};

/// A vertex on a `size` board: `Move::Pass` or `Move::Play`.
pub fn parse_vertex(text: &str, size: usize) -> Result<Move, GtpError> {
    Ok(match gtp_wire::parse_vertex(text, size)? {
        Vertex::Pass => Move::Pass,
        Vertex::Point { column, row } => Move::Play(Point::new(column, size - 1 - row)),
    })
}

/// A move as GTP writes it on a `size` board: `D4`, `pass`, `resign`.
pub fn format_vertex(mv: Move, size: usize) -> String {
    match mv {
        Move::Pass => Vertex::Pass.to_string(),
        Move::Resign => "resign".to_string(),
        Move::Play(p) => Vertex::Point {
            column: usize::from(p.x),
            row: size.saturating_sub(usize::from(p.y) + 1),
        }
        .to_string(),
    }
}

/// The engine's colour of a GTP colour.
pub fn color(color: gtp_wire::Color) -> Color {
    match color {
        gtp_wire::Color::Black => Color::Black,
        gtp_wire::Color::White => Color::White,
    }
}

/// A colour (`b`, `w`, `black`, `white`, any case).
pub fn parse_color(text: &str) -> Result<Color, GtpError> {
    gtp_wire::parse_color(text).map(color)
}

/// A move: its colour and its vertex (`play`'s arguments).
pub fn parse_move(color: &str, vertex: &str, size: usize) -> Result<(Color, Move), GtpError> {
    Ok((parse_color(color)?, parse_vertex(vertex, size)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(x: usize, y: usize) -> Move {
        Move::Play(Point::new(x, y))
    }

    #[test]
    fn rows_count_from_the_bottom() {
        assert_eq!(parse_vertex("A1", 19), Ok(play(0, 18)));
        assert_eq!(parse_vertex("T19", 19), Ok(play(18, 0)));
        assert_eq!(parse_vertex("J10", 19), Ok(play(8, 9)));
        assert_eq!(parse_vertex("j1", 9), Ok(play(8, 8)));
        assert_eq!(parse_vertex("Z25", 25), Ok(play(24, 0)));
        assert_eq!(parse_vertex("pass", 9), Ok(Move::Pass));
        assert_eq!(
            parse_vertex("K1", 9),
            Err(GtpError::InvalidVertex("K1".into()))
        );
        assert!(parse_vertex("A1", 26).is_err());
    }

    #[test]
    fn vertices_format_back() {
        for size in [2, 9, 13, 19, 25] {
            for y in 0..size {
                for x in 0..size {
                    let text = format_vertex(play(x, y), size);
                    assert_eq!(parse_vertex(&text, size), Ok(play(x, y)), "{text}");
                }
            }
        }
        assert_eq!(format_vertex(play(3, 15), 19), "D4");
        assert_eq!(format_vertex(play(8, 0), 9), "J9");
        assert_eq!(format_vertex(Move::Pass, 9), "pass");
        assert_eq!(format_vertex(Move::Resign, 9), "resign");
    }

    #[test]
    fn colours_and_moves() {
        assert_eq!(parse_color("B"), Ok(Color::Black));
        assert_eq!(parse_color("white"), Ok(Color::White));
        assert_eq!(parse_color("x"), Err(GtpError::InvalidColor("x".into())));
        assert_eq!(parse_move("w", "c3", 9), Ok((Color::White, play(2, 6))));
    }
}
