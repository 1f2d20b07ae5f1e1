! pf.f90 — the Fortran side of fortran_types: pc.c does the same with the
! same formulas, so each message is read by the other language than the
! one that wrote it.  C's A[i][j] is A(j, i) here, B[i][j][k] is B(k, j, i);
! an unsigned C value is the signed integer of the same bits.
program pf
  use p_mdl
  use, intrinsic :: iso_c_binding, only: c_int, c_char, c_null_char, c_loc, c_signed_char, &
      c_short, c_long, c_long_long, c_float, c_double
  use, intrinsic :: iso_fortran_env, only: int64
  implicit none
  integer, parameter :: wide = selected_int_kind(38)   ! C's 64-bit unsigned values
  type(p), pointer :: t => null()
  integer(c_int), target :: buf(0:9)
  integer(c_int) :: me, other
  integer :: msg
  logical :: bad = .false.

  call MDL_Init(t)
  me = MDL_MyRank(t)
  other = 1 - me
  ! (one call per statement: a function of the module is impure, and
  ! gfortran -O warns that one in an .and. might not be evaluated)
  call check(MDL_FamilySize(t) == 2, "MDL_FamilySize")
  call check(MDL_pSize(t) == 2, "MDL_pSize")

  ! each message both ways: instance 0 sends first, 1 receives first; what
  ! arrived is checked before the variables are filled again
  do msg = 1, 7
    if (me == 0) then
      call fill(me)
      call send(msg)
      call clear()
      call recv_check(msg)
    else
      call clear()
      call recv_check(msg)
      call fill(me)
      call send(msg)
    end if
  end do

  ! async both ways, completed by Test (a logical): the receive and the
  ! send of one name share it
  call fill(me)
  t%k2 = 0
  t%d2 = 0
  call MDL_RecvFrom_p_later(t, other)
  call MDL_SendTo_p_later(t, other)
  do while (.not. MDL_laterTest(t))
  end do
  call check(t%k2 == -7 - other .and. t%d2 == 2.25_c_double + other, "later")

  call fill(me)
  call MDL_Allreduce_sum(t)
  call check(t%total == 2.25_c_double + 2.25_c_double + 1, "Allreduce")
  call MDL_Gather_ks(t)
  if (me == 0) call check(t%kall(0) == -7 .and. t%kall(1) == -8, "Gather")
  if (me /= 1) then
    t%cells(:)%tag = 0
    call put(t%cells(0)%name, "")
  end if
  call MDL_Bcast_cellcast(t)
  call check_cells(1)
  t%members = [0, 1]
  if (me /= 0) call put(t%word, "")
  call MDL_Mcast_wordcast(t, t%members, 2)
  call check(same(t%word, "hello 0"), "Mcast")
  call MDL_Sbarrier(t, t%members, 2)
  call MDL_End(t)
  call check(.not. associated(t), "MDL_End nullifies t")
  if (bad) error stop 1
  print '(a, i0, a)', "pf ", me, ": OK"

contains

  ! The synchronous messages, in order (as in pc.c).
  subroutine send(msg)
    integer, intent(in) :: msg
    select case (msg)
    case (1)
      call MDL_SendTo_p_scalars(t, other)
    case (2)
      call MDL_SendTo_p_structs(t, other)
    case (3)
      call MDL_SendTo_p_whole(t, other)
    case (4)
      ! rows 1..2, columns 0..3: the bounds in the spec's order, as in C
      call MDL_SendTo_p_block(t, other, 1, 2, 0, 3)
    case (5)
      call MDL_SendTo_p_column(t, other)
    case (6)
      call MDL_SendTo_p_cube(t, other, 0, 2)
    case (7)
      call MDL_SendTo_p_pointed(t, other, 2, 5)
    end select
  end subroutine send

  subroutine recv_check(msg)
    integer, intent(in) :: msg
    integer(c_int) :: from
    integer :: i, j, k
    select case (msg)
    case (1)
      call MDL_RecvFrom_p_scalars(t, MDL_ANY, source=from)
      call check(from == other, "sender")
      call check_scalars(other)
    case (2)
      call MDL_RecvFrom_p_structs(t, other)
      call check_cells(other)
    case (3)
      call MDL_RecvFrom_p_whole(t, other)
      do i = 0, N - 1
        do j = 0, M - 1
          call check(t%A(j, i) == a_val(other, i, j), "whole")
        end do
      end do
    case (4)
      call MDL_RecvFrom_p_block(t, other, 1, 2, 0, 3)
      do i = 0, 3
        do j = 0, 3
          if (i >= 1 .and. i <= 2) then
            call check(t%Q(j, i) == a_val(other, i, j), "block")
          else
            call check(t%Q(j, i) == -1, "block (outside)")
          end if
        end do
      end do
    case (5)
      call MDL_RecvFrom_p_column(t, other)
      do i = 0, N - 1
        do j = 0, M - 1
          if (j == 1) then
            call check(t%A(j, i) == a_val(other, i, j), "column")
          else
            call check(t%A(j, i) == -1, "column (outside)")
          end if
        end do
      end do
    case (6)
      call MDL_RecvFrom_p_cube(t, other, 0, 2)
      do i = 0, 1
        do j = 0, 2
          do k = 0, 3
            if (i == 1 .and. k >= 1 .and. k <= 2) then
              call check(t%B(k, j, i) == b_val(other, i, j, k), "cube")
            else
              call check(t%B(k, j, i) == -1, "cube (outside)")
            end if
          end do
        end do
      end do
    case (7)
      call MDL_RecvFrom_p_pointed(t, other, 2, 5)
      do i = 0, 9
        if (i >= 2 .and. i <= 5) then
          call check(buf(i) == 50 + i + other, "pointed")
        else
          call check(buf(i) == -1, "pointed (outside)")
        end if
      end do
    end select
  end subroutine recv_check

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      print '(a, i0, a, a, a)', "pf ", me, ": ", what, " wrong"
      bad = .true.
    end if
  end subroutine check

  real(c_double) function a_val(s, i, j)
    integer, intent(in) :: s, i, j
    a_val = 100.0_c_double * i + j + 1000.0_c_double * s
  end function a_val

  real(c_double) function b_val(s, i, j, k)
    integer, intent(in) :: s, i, j, k
    b_val = 1000.0_c_double * s + 100.0_c_double * i + 10.0_c_double * j + k
  end function b_val

  ! A C string into a char array, padded with NULs.
  subroutine put(chars, s)
    character(kind=c_char), intent(out) :: chars(0:)
    character(len=*), intent(in) :: s
    integer :: i
    chars = c_null_char
    do i = 1, len(s)
      chars(i - 1) = s(i:i)
    end do
  end subroutine put

  logical function same(chars, s)
    character(kind=c_char), intent(in) :: chars(0:)
    character(len=*), intent(in) :: s
    character(kind=c_char) :: want(0:size(chars) - 1)
    call put(want, s)
    same = all(chars == want)
  end function same

  ! C's unsigned value v of n bits, as the signed integer of its bits.
  integer(int64) function bits(v, n)
    integer(wide), intent(in) :: v
    integer, intent(in) :: n
    integer(wide) :: m
    m = modulo(v, 2_wide**n)
    if (m >= 2_wide**(n - 1)) m = m - 2_wide**n
    bits = int(m, int64)
  end function bits

  ! The unsigned value of the n bits of x.
  integer(wide) function unsigned(x, n)
    integer(int64), intent(in) :: x
    integer, intent(in) :: n
    unsigned = modulo(int(x, wide), 2_wide**n)
  end function unsigned

  character(len=16) function cell_name(j, s)
    integer, intent(in) :: j, s
    write (cell_name, '(a, i0, i0)') "cell", j, s
  end function cell_name

  character(len=16) function word_of(s)
    integer, intent(in) :: s
    write (word_of, '(a, i0)') "hello ", s
  end function word_of

  ! Everything instance s sends.
  subroutine fill(s)
    integer(c_int), intent(in) :: s
    integer :: i, j, k
    t%c = achar(iachar('A') + s, c_char)
    t%sc = int(-5 - s, c_signed_char)
    t%uc = int(bits(int(200 + s, wide), 8), c_signed_char)
    t%s = int(-300 - s, c_short)
    t%us = int(bits(int(60000 + s, wide), 16), c_short)
    t%k = -7 - s
    t%u = int(bits(4000000000_wide + s, 32), c_int)
    t%l = -9000000000_c_long - s
    t%ul = int(bits(18000000000000000000_wide + s, 64), c_long)
    t%ll = -2_c_long_long**40 - s
    t%ull = bits(18446744073709551615_wide - s, 64)
    t%f = 1.5_c_float + s
    t%d = 2.25_c_double + s
    call put(t%word, trim(word_of(s)))
    do j = 0, 1
      t%cells(j)%p%x = 10 * j + s + 0.5_c_double
      t%cells(j)%p%y = -(10 * j + s)
      t%cells(j)%tag = 100 + j + s
      call put(t%cells(j)%name, trim(cell_name(j, s)))
      do k = 0, 2
        t%cells(j)%flags(k) = int(bits(int(250 + k - s, wide), 8), c_signed_char)
      end do
    end do
    do i = 0, N - 1
      do j = 0, M - 1
        t%A(j, i) = a_val(s, i, j)
      end do
    end do
    do i = 0, 3
      do j = 0, 3
        t%Q(j, i) = a_val(s, i, j)
      end do
    end do
    do i = 0, 1
      do j = 0, 2
        do k = 0, 3
          t%B(k, j, i) = b_val(s, i, j, k)
        end do
      end do
    end do
    do i = 0, 9
      buf(i) = 50 + i + s
    end do
    t%ptr = c_loc(buf)
  end subroutine fill

  ! Before receiving: the numbers -1, the characters NUL.
  subroutine clear()
    t%c = c_null_char
    t%sc = 0
    t%uc = 0
    t%s = 0
    t%us = 0
    t%k = 0
    t%u = 0
    t%l = 0
    t%ul = 0
    t%ll = 0
    t%ull = 0
    t%f = 0
    t%d = 0
    call put(t%word, "")
    t%cells(:)%p%x = 0
    t%cells(:)%p%y = 0
    t%cells(:)%tag = 0
    call put(t%cells(0)%name, "")
    call put(t%cells(1)%name, "")
    t%cells(0)%flags = 0
    t%cells(1)%flags = 0
    t%A = -1
    t%Q = -1
    t%B = -1
    buf = -1
    t%ptr = c_loc(buf)
  end subroutine clear

  subroutine check_scalars(s)
    integer(c_int), intent(in) :: s
    call check(t%c == achar(iachar('A') + s, c_char) .and. t%sc == -5 - s, "char")
    call check(unsigned(int(t%uc, int64), 8) == 200 + s, "unsigned char")
    call check(t%s == -300 - s .and. unsigned(int(t%us, int64), 16) == 60000 + s, "short")
    call check(t%k == -7 - s .and. unsigned(int(t%u, int64), 32) == 4000000000_wide + s, "int")
    call check(t%l == -9000000000_c_long - s, "long")
    call check(unsigned(int(t%ul, int64), 64) == 18000000000000000000_wide + s, "unsigned long")
    call check(t%ll == -2_c_long_long**40 - s, "long long")
    call check(unsigned(int(t%ull, int64), 64) == 18446744073709551615_wide - s, "unsigned long long")
    call check(t%f == 1.5_c_float + s .and. t%d == 2.25_c_double + s, "float/double")
    call check(same(t%word, trim(word_of(s))), "word")
  end subroutine check_scalars

  subroutine check_cells(s)
    integer(c_int), intent(in) :: s
    integer :: j, k
    do j = 0, 1
      call check(t%cells(j)%p%x == 10 * j + s + 0.5_c_double .and. &
                 t%cells(j)%p%y == -(10 * j + s) .and. t%cells(j)%tag == 100 + j + s, "cell")
      call check(same(t%cells(j)%name, trim(cell_name(j, s))), "cell name")
      do k = 0, 2
        call check(unsigned(int(t%cells(j)%flags(k), int64), 8) == 250 + k - s, "cell flags")
      end do
    end do
  end subroutine check_cells
end program pf
