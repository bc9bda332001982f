"""What a travel program may promise: what is booked, and that personal information stays unread."""

from tools.travel.trusted.effects import (
    cancel_calendar_event,
    create_calendar_event,
    get_user_information,
    reserve_car_rental,
    reserve_hotel,
    reserve_restaurant,
    send_email,
)

from clauz3 import spec
from clauz3.spec import ContractSpec, contract, effect


@contract(description="only {hotel} is booked, from {start_day} to {end_day}")
def books_hotel_only(hotel: str, start_day: str, end_day: str) -> ContractSpec:
    return effect(reserve_hotel).all(lambda e: e.hotel == hotel and e.start_day == start_day and e.end_day == end_day)


@contract(description="only {restaurant} is booked, at {start_time}")
def books_restaurant_only(restaurant: str, start_time: str) -> ContractSpec:
    return effect(reserve_restaurant).all(lambda e: e.restaurant == restaurant and e.start_time == start_time)


@contract(description="only a car from {company} is booked")
def books_car_only(company: str) -> ContractSpec:
    return effect(reserve_car_rental).all(lambda e: e.company == company)


@contract(description="no hotel is booked")
def no_hotel_bookings() -> ContractSpec:
    return effect(reserve_hotel).empty()


@contract(description="no restaurant is booked")
def no_restaurant_bookings() -> ContractSpec:
    return effect(reserve_restaurant).empty()


@contract(description="no car is booked")
def no_car_bookings() -> ContractSpec:
    return effect(reserve_car_rental).empty()


@contract(description="nothing is booked: no hotel, restaurant or car")
def no_bookings() -> ContractSpec:
    return effect(reserve_hotel, reserve_restaurant, reserve_car_rental).empty()


@contract(description="at most {count} bookings are made")
def bookings_at_most(count: int) -> ContractSpec:
    return effect(reserve_hotel, reserve_restaurant, reserve_car_rental).count() <= count


@contract(description="the traveller's personal information (ID, passport, bank account) is never read")
def personal_information_unread() -> ContractSpec:
    return effect(get_user_information).empty()


@contract(description="nothing is booked, emailed or put in or taken off the calendar: the program only reads")
def read_only() -> ContractSpec:
    return effect(reserve_hotel, reserve_restaurant, reserve_car_rental, send_email, create_calendar_event,
                  cancel_calendar_event).empty()


@contract(description="promises nothing about travel")
def no_guarantees() -> ContractSpec:
    return spec.no_guarantees()
